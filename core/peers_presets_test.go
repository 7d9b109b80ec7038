package core_test

import (
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// dipSamples is core's dipRun (peers_test.go) as a logged run: requests
// issued at 0, 1, 2, 3, 10, 11, 12, 15, 20, 21, 22, 23 s and completed
// at 10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 40 s, a first token
// 0.5 s after each issue and 100 tokens after it; super-passes of 4
// requests (3 full), target concurrency 4.
func dipSamples() (*core.Samples, core.RunInfo) {
	spans := [][2]int64{{0, 10}, {1, 11}, {2, 12}, {3, 13}, {10, 20}, {11, 21}, {12, 22}, {15, 23},
		{20, 30}, {21, 31}, {22, 32}, {23, 40}}
	const sec = int64(1e9)
	s := &core.Samples{}
	for i, sp := range spans {
		is, cs, ft := sp[0]*sec, sp[1]*sec, sp[0]*sec+sec/2
		s.IssueNs, s.LastIssueNs, s.LastEventNs = append(s.IssueNs, is), append(s.LastIssueNs, is), append(s.LastEventNs, cs)
		s.HasFirstToken, s.FirstTokenNs, s.TTFTNs = append(s.HasFirstToken, true), append(s.FirstTokenNs, ft), append(s.TTFTNs, ft-is)
		s.WarmTTFT, s.FirstTokenSeq = append(s.WarmTTFT, true), append(s.FirstTokenSeq, int64(3*i+1))
		s.HasComplete, s.CompleteNs, s.LatencyNs = append(s.HasComplete, true), append(s.CompleteNs, cs), append(s.LatencyNs, cs-is)
		s.CompleteSeq, s.OutTokens = append(s.CompleteSeq, int64(3*i+2)), append(s.OutTokens, 100)
		s.FullTokens, s.Failed = append(s.FullTokens, -1), append(s.Failed, false)
		s.FailureKind, s.Retries = append(s.FailureKind, core.FailNone), append(s.Retries, 0)
	}
	return s, core.RunInfo{DatasetSize: 4, LoadPattern: "concurrency", Concurrency: 4, Streaming: true}
}

// TestPeerPresetsReportTheirWindow: through Analyze, each peer preset
// reports the super-passes its method's requests fill (worked by hand in
// peers_test.go): vllm-bench counts the requests started in [3 s, 30 s),
// issue ranks 3…11 → super-passes round(3/4) = 1 to round(12/4) = 3,
// i.e. 1…2; sglang the ones started in [15 s, 30 s), ranks 7…11 → 2…2;
// guidellm every request → 0…2. Without a target concurrency vllm-bench
// reports no window and says why.
func TestPeerPresetsReportTheirWindow(t *testing.T) {
	s, info := dipSamples()
	for _, c := range []struct {
		m      core.Method
		lo, hi int
	}{{core.MethodVLLMBench, 1, 2}, {core.MethodSGLang, 2, 2}, {core.MethodGuideLLM, 0, 2}} {
		p := core.DefaultParams()
		p.Method = c.m
		r, err := core.NewRun(s, info).Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		o := r.Outcome()
		if r.Assessment.Baseline != c.m || o.WindowStartSP != c.lo || o.WindowEndSP != c.hi {
			t.Errorf("%s: window %d…%d (%s), want %d…%d", c.m, o.WindowStartSP, o.WindowEndSP, o.Reason, c.lo, c.hi)
		}
	}
	p := core.DefaultParams()
	p.Method = core.MethodVLLMBench
	info.Concurrency = 0
	r, err := core.NewRun(s, info).Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	if o := r.Outcome(); o.Found || o.WindowStartSP != -1 || !strings.Contains(r.Steady.Reason, "closed-loop") {
		t.Errorf("no target: found %v window %d, reason %q", o.Found, o.WindowStartSP, r.Steady.Reason)
	}
}
