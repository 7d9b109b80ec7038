package columnar

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/internal/coltest"
	"github.com/steadysweep/steadysweep/core"
)

// ingestPath resolves and ingests path (no token counter: the foreign
// formats record their counts), failing the test on an error.
func ingestPath(t testing.TB, path string) (*contract.Table, core.Samples) {
	t.Helper()
	_, tab := ingestRun(t, path, contract.IngestOptions{})
	return tab, tab.Samples()
}

// ingestRun resolves and ingests path with opts, failing the test on an
// error, and returns the run (its warnings, its format) beside the table,
// released when the test ends.
func ingestRun(t testing.TB, path string, opts contract.IngestOptions) (*contract.Run, *contract.Table) {
	t.Helper()
	run, err := ResolveRun(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Ingest(context.Background(), run, opts)
	if err != nil {
		t.Fatal(err)
	}
	return run, tab
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

// writeTemp writes body to dir/name and returns its path
// (coltest.WriteTemp).
func writeTemp(t testing.TB, dir, name, body string) string {
	t.Helper()
	return coltest.WriteTemp(t, dir, name, body)
}

// checkColumns fails unless every column of s holds one entry per
// sample (coltest.CheckColumns).
func checkColumns(t testing.TB, s *core.Samples) {
	t.Helper()
	coltest.CheckColumns(t, s)
}

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

// checkOneProblem ingests path and fails unless it yields samples samples
// and exactly one problem, whose message holds want: a bad record is
// reported once and costs only itself.
func checkOneProblem(t *testing.T, path string, samples int, want string) {
	t.Helper()
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	if s.Len() != samples {
		t.Errorf("%d samples, want %d", s.Len(), samples)
	}
	if msg := warningsOf(tab); !strings.Contains(msg, want) || tab.Summary.ProblemTotal() != 1 {
		t.Errorf("problems %q, want one %q", msg, want)
	}
}

// checkNeighboursKept reads body, a log of format f whose record on line
// lo+1 is fuzzed between two valid ones, and fails unless the read
// succeeds, keeps both valid records and names no line outside lo..hi.
func checkNeighboursKept(t *testing.T, dir, name, body string, f contract.Format, lo, hi int) {
	t.Helper()
	d, err := readTemp(t, dir, name, body, f, contract.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Samples.Len() < 2 {
		t.Fatalf("%d samples: the valid records were lost", d.Samples.Len())
	}
	checkProblemLines(t, d, lo, hi)
}

// sampleView is one sample as the reader tests compare it; second is the
// token column the test names (output or reasoning tokens).
type sampleView struct {
	id                   string
	issue, ttft, latency int64
	full, second, in     int64
	kind                 core.FailureKind
	code                 int32
}

// checkSampleViews compares the samples of tab, in order, with want,
// reading second from the column given.
func checkSampleViews(t *testing.T, tab *contract.Table, s core.Samples, second []int64, want []sampleView) {
	t.Helper()
	if s.Len() != len(want) {
		t.Fatalf("%d samples, want %d", s.Len(), len(want))
	}
	for i, want := range want {
		got := sampleView{tab.UUID(i), s.IssueNs[i], s.TTFTNs[i], s.LatencyNs[i], s.FullTokens[i], second[i], s.InTokens[i], s.FailureKind[i], s.FailCode[i]}
		if got != want {
			t.Errorf("sample %d: %+v, want %+v", i, got, want)
		}
	}
}
