package columnar

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// implausibleAIPerf is an AIPerf log of n records issued 10 ms apart
// (a 20 s run for n = 2000) whose every stride-th record is stamped
// 9.2e18 ns (year 2261), issue 30's hostile input.
func implausibleAIPerf(n, stride int) string {
	var b strings.Builder
	const base = int64(1759522419000000000)
	for i := range n {
		ts := base + int64(i)*10_000_000
		if i%stride == stride/2 {
			ts = 9_200_000_000_000_000_000
		}
		fmt.Fprintf(&b, `{"metadata":{"x_request_id":"r%d","timestamp_ns":%d,"credit_phase":"profiling"},"metrics":{"ttft":{"value":%d,"unit":"ms"},"request_latency":{"value":%d,"unit":"ms"},"output_sequence_length":{"value":100,"unit":"tokens"}}}`+"\n",
			i, ts, 50+i%5, 500+i%17)
	}
	return b.String()
}

// TestImplausibleTimestampsDropped is issue 30's "AIPerf records 1 % of
// which carry timestamps of 9.2e18 ns stay in-flight samples, and a 20 s
// run is certified STEADY STATE over 7.5e9 s". Loaded, the 20 records
// stamped 9.2e18 are out of the columns and named (kind
// implausible_timestamp, count 20); the run's issue span is the 20 s the
// test wrote; the analysis reports them as impossible timing (20
// excluded, 1 % of 2000) and its window lasts seconds, not centuries. At
// 3 % the run is not certified (invalid_timing).
func TestImplausibleTimestampsDropped(t *testing.T) {
	for _, tc := range []struct {
		stride, bad int
		trusted     bool
	}{{100, 20, true}, {33, 61, false}} {
		t.Run(fmt.Sprint(tc.bad), func(t *testing.T) {
			dir := t.TempDir()
			path := writeTemp(t, dir, "profile_export.jsonl", implausibleAIPerf(2000, tc.stride))
			run, err := ResolveRun(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			l, err := Load(context.Background(), run, IngestOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := l.Samples.Len(); got != 2000-tc.bad {
				t.Fatalf("%d samples loaded, want %d (the implausible ones out)", got, 2000-tc.bad)
			}
			var found *core.EventAnomaly
			for i := range l.Info.EventAnomalies {
				if l.Info.EventAnomalies[i].Kind == core.TimingImplausibleTimestamp {
					found = &l.Info.EventAnomalies[i]
				}
			}
			if found == nil || found.Count != tc.bad {
				t.Fatalf("anomalies %+v, want %d implausible timestamps", l.Info.EventAnomalies, tc.bad)
			}
			lo, hi := l.Samples.IssueNs[0], l.Samples.IssueNs[0]
			for _, ts := range l.Samples.IssueNs {
				lo, hi = min(lo, ts), max(hi, ts)
			}
			if span := float64(hi-lo) / 1e9; span > 20 {
				t.Fatalf("issue span %.3g s, want under the 20 s written", span)
			}

			p := core.DefaultParams()
			p.SuperpassSize = 100
			res, err := core.NewRun(&l.Samples, l.Info).Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			tr := res.Assessment.Timing
			if tr.NExcluded != tc.bad || tr.Trusted != tc.trusted || !strings.Contains(tr.Warning(), fmt.Sprintf("%d implausible timestamp", tc.bad)) {
				t.Fatalf("timing %+v (%q), want %d excluded, trusted %v", tr, tr.Warning(), tc.bad, tc.trusted)
			}
			out := res.Outcome()
			if out.WindowDurationS > 20 {
				t.Fatalf("window of %.3g s in a 20 s run", out.WindowDurationS)
			}
			if !tc.trusted && (out.Status != core.StatusInvalidTiming || out.Found) {
				t.Fatalf("%d of 2000 implausible: status %s, found %v; want invalid_timing, nothing certified", tc.bad, out.Status, out.Found)
			}
		})
	}
}
