package core

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// randomSamples is n samples with arbitrary, partly inconsistent columns:
// missing first tokens and completions, zero or negative token counts,
// timestamps out of order, equal issue times (offline), short columns.
func randomSamples(rng *rand.Rand, n int) *Samples {
	s := &Samples{}
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

// TestOursNoPanic runs every mode, method and the rollups path on random
// and degenerate inputs: each yields a result with a known status and a
// JSON encoding without NaN in our keys, or an error, never a panic.
func TestOursNoPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	statuses := []string{StatusWindowable, StatusInsufficientPasses, StatusPartialDataset,
		StatusInsufficientDuration, StatusNotSupported, StatusError}
	for it := range 120 {
		n := []int{0, 1, 3, 50, 400, 1500}[it%6]
		s := randomSamples(rng, n)
		info := RunInfo{DatasetSize: 1 + rng.IntN(120), LoadPattern: []string{"", "poisson", "max_throughput",
			"agentic_inference", "weird"}[rng.IntN(5)], Concurrency: rng.IntN(64), Partial: rng.IntN(2) == 0}
		p := DefaultParams()
		p.Method = MethodChoices[rng.IntN(len(MethodChoices))]
		if rng.IntN(4) == 0 {
			p.WarmupMode, p.WarmupFixed = "fixed", rng.IntN(5)
		}
		r, err := Analyze(s, info, p)
		if err != nil {
			t.Fatalf("it %d: %v", it, err)
		}
		for _, res := range []*Result{r, mustRollups(t, s, info, p)} {
			if res.Ours == nil || !oursContains(statuses, res.Ours.Status) {
				t.Fatalf("it %d: status %+v", it, res.Ours)
			}
			_ = res.Outcome()
			js := string(encodePyJSON(res.Extra))
			if strings.Contains(js, "NaN") || strings.Contains(js, "Infinity") {
				t.Fatalf("it %d: non-finite number in %s", it, js)
			}
			_ = res.SubmissionYAML()
			_ = res.ReferenceJSON()
		}
	}
}

func mustRollups(t *testing.T, s *Samples, info RunInfo, p Params) *Result {
	t.Helper()
	S := max(info.DatasetSize, 1)
	r, err := AnalyzeRollups(Rollup(s, S), info, p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func oursContains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
