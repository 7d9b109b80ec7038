package core_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/reftext"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// renderAll renders r every way the reference CLI does.
func renderAll(t *testing.T, r *core.Result) {
	t.Helper()
	if _, err := resultjson.Marshal(r); err != nil {
		t.Fatal(err)
	}
	if _, err := reftext.Text(r); err != nil {
		t.Fatal(err)
	}
}

// TestNoPanics runs the whole pipeline and every output on random and
// degenerate inputs: short or missing columns, negative and zero
// durations, zero token counts, NaN and infinite values in hand-built
// super-passes, every trend gate, tiny and huge sizes.
func TestNoPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	gates := core.TrendGates()
	for trial := range 300 {
		n := rng.IntN(400)
		s := core.SyntheticSamples(1, max(n, 1))
		cut := func(l int) int { return rng.IntN(l + 1) }
		switch trial % 5 {
		case 0: // ragged columns
			s.TTFTNs = s.TTFTNs[:cut(len(s.TTFTNs))]
			s.CompleteSeq = s.CompleteSeq[:cut(len(s.CompleteSeq))]
			s.OutTokens = s.OutTokens[:cut(len(s.OutTokens))]
		case 1: // odd values
			for i := range s.IssueNs {
				s.TTFTNs[i] = int64(rng.IntN(3)) - 1
				s.OutTokens[i] = int64(rng.IntN(3)) - 1
				s.CompleteNs[i] = s.FirstTokenNs[i] - int64(rng.IntN(2))
				s.HasFirstToken[i] = rng.IntN(2) == 0
			}
		case 2:
			s = &core.Samples{}
		}
		p := core.ReferenceParams()
		p.TrendGate = gates[trial%len(gates)]
		p.WindowSizes = []int{1 + rng.IntN(10), 1 + rng.IntN(100), 4}
		p.MinDuration = trial%2 == 0
		if trial%3 == 0 {
			p.WarmupMode, p.WarmupFixed = core.WarmupFixed, rng.IntN(20)
		}
		if trial%7 == 0 {
			p.CovBounds = []float64{0.5, 0.01, 0.5}
		}
		info := core.RunInfo{DatasetSize: 1 + rng.IntN(50)}
		if trial%11 == 0 {
			info.DatasetSize = math.MaxInt
		}
		if trial%13 == 0 {
			info.LoadPattern = "agentic_inference"
		}
		r, err := core.NewRun(s, info).Analyze(p)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		renderAll(t, r)
		_ = r.Caveat()
	}
	// Hand-built super-passes with non-finite values.
	bad := core.MkSeries(core.RepeatLevel(100, 50, 10), 5)
	bad[3].TPOT[0] = math.NaN()
	bad[4].TTFT = nil
	bad[5].TPOT = []float64{math.Inf(1)}
	bad[6].FirstIssueNs, bad[6].LastIssueNs = -1, -1
	bad[7].Latency = []float64{math.NaN(), 1}
	for _, md := range []bool{true, false} {
		r, err := core.AnalyzeRollups(bad, core.TestInfo, core.PostParams(md))
		if err != nil {
			t.Fatal(err)
		}
		renderAll(t, r)
	}
}
