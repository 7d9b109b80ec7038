package columnar

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// ingestPath resolves and ingests path (no token counter: the foreign
// formats record their counts), failing the test on an error.
func ingestPath(t testing.TB, path string) (*contract.Table, core.Samples) {
	t.Helper()
	run, err := ResolveRun(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Ingest(context.Background(), run, contract.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tab.Release)
	return tab, tab.Samples()
}

// wholeRun analyses the samples with the default parameters and returns
// the outcome (the whole-run totals are the point: these runs are short).
func wholeRun(t testing.TB, s core.Samples, info core.RunInfo) core.Outcome {
	t.Helper()
	res, err := core.NewRun(&s, info).Analyze(core.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	return res.Outcome()
}

// medianOf is the sample median: the middle value, or the mean of the two
// middle ones.
func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// lowerMedianOf is the reference's p50: sorted[trunc(0.5·(n−1))].
func lowerMedianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(0.5*float64(len(s)-1))]
}

// near reports |a−b| ≤ tol.
func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// warningsOf returns the summary's problem messages.
func warningsOf(tab *contract.Table) string { return strings.Join(tab.Summary.Warnings(), "\n") }

// writeTemp writes body to dir/name and returns its path.
func writeTemp(t testing.TB, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// column counts of s must all equal its length, the optional columns'
// (core.Samples) that or 0.
func checkColumns(t testing.TB, s *core.Samples) {
	t.Helper()
	n := s.Len()
	for name, l := range map[string]int{
		"LastIssueNs": len(s.LastIssueNs), "LastEventNs": len(s.LastEventNs), "HasFirstToken": len(s.HasFirstToken),
		"FirstTokenNs": len(s.FirstTokenNs), "TTFTNs": len(s.TTFTNs), "WarmTTFT": len(s.WarmTTFT),
		"FirstTokenSeq": len(s.FirstTokenSeq), "HasComplete": len(s.HasComplete), "CompleteNs": len(s.CompleteNs),
		"LatencyNs": len(s.LatencyNs), "CompleteSeq": len(s.CompleteSeq), "OutTokens": len(s.OutTokens),
		"FullTokens": len(s.FullTokens), "Failed": len(s.Failed), "Retries": len(s.Retries),
		"ConversationID": len(s.ConversationID), "Turn": len(s.Turn), "FailureKind": len(s.FailureKind),
		"FailCode": len(s.FailCode), "InTokens": len(s.InTokens), "ReasoningTokens": len(s.ReasoningTokens),
	} {
		if l != n && !(l == 0 && optionalColumn[name]) {
			t.Fatalf("column %s has %d entries, want %d", name, l, n)
		}
	}
}

// optionalColumn names core.Samples' optional columns: Len long or empty.
var optionalColumn = map[string]bool{"FailCode": true, "InTokens": true, "ReasoningTokens": true, "ConversationID": true, "Turn": true}

// readTemp writes body to dir/name and reads it as a log of format f with
// f's Reader (benchmark 0 of a GuideLLM report), checking that every
// column holds one entry per sample (checkColumns) whatever the error.
func readTemp(t *testing.T, dir, name, body string, f contract.Format, opts contract.IngestOptions) (*contract.Decoded, error) {
	t.Helper()
	path := writeTemp(t, dir, name, body)
	run := &contract.Run{Dir: dir, EventsPath: path, Format: f, Part: -1}
	if f == contract.FormatGuideLLM {
		run.Part = 0
	}
	r, err := ReaderFor(f)
	if err != nil {
		t.Fatal(err)
	}
	var d contract.Decoded
	_, err = r.Read(context.Background(), run, opts, &d)
	checkColumns(t, &d.Samples)
	return &d, err
}

// checkProblemLines fails when a problem of d's summary names a line
// outside lo..hi.
func checkProblemLines(t *testing.T, d *contract.Decoded, lo, hi int) {
	t.Helper()
	for _, p := range d.Summary.Problems {
		for _, e := range p.First {
			if e.Line < lo || e.Line > hi {
				t.Fatalf("problem %v outside lines %d..%d", e, lo, hi)
			}
		}
	}
}
