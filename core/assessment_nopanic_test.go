package core_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sinks/submission"
)

// randomSamples is n samples with arbitrary, partly inconsistent columns:
// missing first tokens and completions, zero or negative token counts,
// timestamps out of order, equal issue times (offline), short columns.
func randomSamples(rng *rand.Rand, n int) *core.Samples {
	s := &core.Samples{}
	t := int64(rng.IntN(1000))
	for i := range n {
		if rng.IntN(4) > 0 {
			t += int64(rng.IntN(1e9))
		}
		ft := t + int64(rng.IntN(2e9)) - 1e8
		ct := ft + int64(rng.IntN(5e9)) - 1e8
		s.IssueNs = append(s.IssueNs, t)
		s.LastIssueNs = append(s.LastIssueNs, t)
		s.LastEventNs = append(s.LastEventNs, max(ct, t))
		hf, hc := rng.IntN(10) > 0, rng.IntN(10) > 0
		s.HasFirstToken = append(s.HasFirstToken, hf)
		s.FirstTokenNs = append(s.FirstTokenNs, ft)
		s.TTFTNs = append(s.TTFTNs, ft-t)
		s.WarmTTFT = append(s.WarmTTFT, true)
		s.FirstTokenSeq = append(s.FirstTokenSeq, int64(3*i))
		s.HasComplete = append(s.HasComplete, hc)
		s.CompleteNs = append(s.CompleteNs, ct)
		s.LatencyNs = append(s.LatencyNs, ct-t)
		s.CompleteSeq = append(s.CompleteSeq, int64(3*i+1))
		s.OutTokens = append(s.OutTokens, int64(rng.IntN(200))-20)
	}
	if n > 3 && rng.IntN(3) == 0 {
		s.OutTokens = s.OutTokens[:n/2] // a short column
	}
	return s
}

// TestOursNoPanic runs every mode and method on random and degenerate
// inputs, on a fresh run, on a run analysed before under other parameters
// (the sweep's shared memos) and on the rollups alone: each yields a result
// with a known status and a JSON encoding without NaN in steadysweep's
// keys, or an error, never a panic.
func TestOursNoPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	methods := core.Methods()
	for it := range 120 {
		n := []int{0, 1, 3, 50, 400, 1500}[it%6]
		s := randomSamples(rng, n)
		info := core.RunInfo{DatasetSize: 1 + rng.IntN(120), LoadPattern: []string{"", "poisson", "max_throughput",
			"agentic_inference", "weird"}[rng.IntN(5)], Concurrency: rng.IntN(64), Partial: rng.IntN(2) == 0}
		p := core.DefaultParams()
		p.Method = methods[rng.IntN(len(methods))]
		if rng.IntN(4) == 0 {
			p.WarmupMode, p.WarmupFixed = core.WarmupFixed, rng.IntN(5)
		}
		r, err := core.NewRun(s, info).Analyze(p)
		if err != nil {
			t.Fatalf("it %d: %v", it, err)
		}
		shared := core.NewRun(s, info)
		for _, q := range []core.Params{core.DefaultParams(), core.ReferenceParams()} {
			if _, err := shared.Analyze(q); err != nil {
				t.Fatalf("it %d: %v", it, err)
			}
		}
		again, err := shared.Analyze(p)
		if err != nil {
			t.Fatalf("it %d: %v", it, err)
		}
		rollups, err := core.AnalyzeRollups(core.Rollup(s, max(info.DatasetSize, 1)), info, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range []*core.Result{r, again, rollups} {
			if res.Assessment == nil || !slices.Contains(core.Statuses(), res.Assessment.Status) {
				t.Fatalf("it %d: status %+v", it, res.Assessment)
			}
			_ = res.Outcome()
			js := string(pyjsonOf(resultjson.Assessment(res)))
			if strings.Contains(js, "NaN") || strings.Contains(js, "Infinity") {
				t.Fatalf("it %d: non-finite number in %s", it, js)
			}
			var b bytes.Buffer
			if err := submission.WritePointYAML(&b, res); err != nil {
				t.Fatal(err)
			}
			if _, err := resultjson.Marshal(res); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// pyjsonOf is the Python-layout JSON of v.
func pyjsonOf(v any) []byte { return pyjson.Marshal(v) }
