package sinks

import (
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// TestPlottedMetricIndices holds the plots' constant indices to
// core.MetricIndex of their keys.
func TestPlottedMetricIndices(t *testing.T) {
	for key, got := range map[string]int{
		"ttft_p50": ttftP50, "ttft_p90": ttftP90,
		"tpot_p50": tpotP50, "tpot_p90": tpotP90,
		"latency_p50": latencyP50, "latency_p90": latencyP90,
	} {
		if want := core.MetricIndex(key); got != want || want < 0 {
			t.Errorf("index of %s = %d, core.MetricIndex says %d", key, got, want)
		}
	}
}
