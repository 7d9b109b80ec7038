package foreign

import (
	"errors"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// guidellmMeasure is GuideLLM ≥ 0.5's own measurement window
// (benchmarks[].scheduler_metrics.measure_start_time and
// measure_end_time, epoch s): the part of the benchmark its metrics
// keep after the warmup and cooldown it was configured with
// (vllm-project/guidellm src/guidellm/benchmark/schemas/base.py @
// ec6c916e, TransientPhaseConfig: warmup [start, start + duration],
// cooldown [end − duration, end]; the real report
// ../shared/realdata/guidellm05-qwen3-30b-sync-incomplete trims 90 s at
// each end).
type guidellmMeasure struct {
	Start contract.OptNum `json:"measure_start_time"`
	End   contract.OptNum `json:"measure_end_time"`
}

// readGuideLLMMeasure decodes a benchmark's scheduler_metrics into
// cfg.measure, counting a field of the wrong type at its path.
func readGuideLLMMeasure(w *scan.JSONWalker, at string, cfg *guidellmConfig, sum *contract.Summary) error {
	raw, err := w.RawValue()
	if errors.Is(err, scan.ErrValueTooLarge) {
		sum.AddProblem(contract.KindLineTooLong, 0, at+".scheduler_metrics")
		return nil
	}
	if err != nil {
		return &recordError{at: at + ".scheduler_metrics", err: err}
	}
	var m guidellmMeasure
	if !unmarshalRecord(raw, at+".scheduler_metrics", &m, sum) {
		return nil
	}
	m.Start.Check(sum, 0, at+".scheduler_metrics.measure_start_time")
	m.End.Check(sum, 0, at+".scheduler_metrics.measure_end_time")
	cfg.measure = &m
	return nil
}

// window is the measure window in ns, nil when GuideLLM recorded none
// (before 0.5) or an unusable one (end not after start).
func (m *guidellmMeasure) window() *core.PeerWindow {
	if m == nil || !m.Start.Set || !m.End.Set {
		return nil
	}
	s, ok1 := contract.NsOf(m.Start.Float, "s")
	e, ok2 := contract.NsOf(m.End.Float, "s")
	if !ok1 || !ok2 || e <= s {
		return nil
	}
	return &core.PeerWindow{Source: "guidellm scheduler_metrics.measure_start_time/measure_end_time", StartNs: s, EndNs: e}
}
