package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/corpora"
)

// failingFor is the fake loader, except that the runs named in bad fail
// as a run does whose model has no local tokenizer.
func failingFor(bad ...string) Loader {
	return func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		if slices.Contains(bad, ref.Rel) {
			return nil, errors.New(`tokenizer for model "x": not in the local cache (pass --tokenizer)`)
		}
		return fakeLoader(nil)(ctx, ref)
	}
}

func statusCount(rows []row) map[string]int {
	n := map[string]int{}
	for _, r := range rows {
		n[r.status]++
	}
	return n
}

// A sweep whose runs failed (the tokenizer missing) stays failed on a
// plain resume (--retry-errors=false: the old behaviour), and a resume
// with RetryErrors, once the cause is fixed, redoes exactly the error
// rows: it says how many, the runs are analysed again, and the rows are
// runs × configs with no error and no duplicate.
func TestResumeRetriesErrorRows(t *testing.T) {
	o, mem := fakeSweep(t)
	runs, cs, out := o.Runs, o.Configs, o.Out
	bad := []string{"conc_failures", "offline_burst", "poisson_steady"}
	o.Load = failingFor(bad...)
	if sum, err := Run(context.Background(), o); err != nil || sum.ErrorRuns != 3 {
		t.Fatalf("first sweep: %+v, %v", sum, err)
	}

	o.Load, o.Resume = fakeLoader(nil), true
	sum, err := Run(context.Background(), o)
	if err != nil || sum.Rows != 0 || sum.Skipped != 18 || sum.Retried != 0 {
		t.Fatalf("resume without RetryErrors: %+v, %v; want nothing redone", sum, err)
	}
	if n := statusCount(readRows(t, filepath.Join(out, "rows"), mem))[StatusError]; n != 27 {
		t.Fatalf("error rows after a plain resume: %d, want the 27 kept", n)
	}

	var log bytes.Buffer
	o.RetryErrors, o.Progress = true, NewProgress(&log, false, false)
	sum, err = Run(context.Background(), o)
	if err != nil || sum.Retried != 27 || sum.Analysed != 3 || sum.Skipped != 15 || sum.Rows != 27 || sum.ErrorRuns != 0 {
		t.Fatalf("resume with RetryErrors: %+v, %v; want 27 rows of 3 runs redone", sum, err)
	}
	if !strings.Contains(log.String(), "resume: redoing 27 error rows") || !strings.Contains(sum.String(), "27 error rows redone") {
		t.Errorf("the resume does not say what it redoes: %q / %q", log.String(), sum.String())
	}
	rows := readRows(t, filepath.Join(out, "rows"), mem)
	if got, want := pairs(t, rows), expectedPairs(runs, cs); !slices.Equal(got, want) {
		t.Fatalf("rows after the retry are not runs × configs once each (%d rows)", len(rows))
	}
	if n := statusCount(rows)[StatusError]; n != 0 {
		t.Errorf("%d error rows left", n)
	}

	// Nothing left to retry: a further resume does nothing.
	if sum, err := Run(context.Background(), o); err != nil || sum.Rows != 0 || sum.Retried != 0 || sum.Skipped != 18 {
		t.Fatalf("resume after the retry: %+v, %v", sum, err)
	}
}

// A shard redoes error rows only in its own part files: after an
// unsharded sweep, shard 0 of 2 keeps (and counts) its runs' error rows,
// which the unsharded files hold, and redoes nothing; an unsharded resume
// then redoes them all. A retry that fails again writes its error rows
// once, not on top of the old ones.
func TestResumeRetryShardsAndRepeatFailures(t *testing.T) {
	mem := checkedMem(t)
	runs, cs := fakeArchive(t), grid3x3(t)[:2]
	out := t.TempDir()
	o := fakeOptions(runs, cs, out)
	o.Load = failingFor(parityNames...) // every run fails
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	shard0 := 0
	for _, r := range runs {
		if (Shard{0, 2}).Owns(r) {
			shard0++
		}
	}
	o.Resume, o.RetryErrors, o.Shard = true, true, Shard{0, 2}
	sum, err := Run(context.Background(), o)
	if err != nil || sum.Retried != 0 || sum.RetryKept != 2*shard0 || sum.Rows != 0 {
		t.Fatalf("shard 0/2 over unsharded files: %+v, %v; want %d error rows kept", sum, err, 2*shard0)
	}

	o.Shard = Shard{}
	sum, err = Run(context.Background(), o) // still failing: redone into error rows again
	if err != nil || sum.Retried != 36 || sum.Rows != 36 || sum.ErrorRuns != 18 {
		t.Fatalf("unsharded retry: %+v, %v", sum, err)
	}
	rows := readRows(t, filepath.Join(out, "rows"), mem)
	if got, want := pairs(t, rows), expectedPairs(runs, cs); !slices.Equal(got, want) {
		t.Fatalf("a repeated failure duplicated rows (%d rows)", len(rows))
	}
	// The ten named runs failed alike: one line names them all with the
	// reason once (issue 26: ten long tokenizer messages were ten lines).
	if lines := sum.FailureLines(); len(lines) != 2 || lines[0] != "18 runs failed; the first 10:" ||
		!strings.HasPrefix(lines[1], "  10 runs (") || strings.Count(lines[1], "not in the local cache") != 1 {
		t.Errorf("failure lines %q", lines)
	}
}

// Off a terminal, progress is a time-stamped line every Every (no \r),
// then the summary and the failed runs.
func TestProgressLinesOffTerminal(t *testing.T) {
	runs, cs := fakeArchive(t), grid3x3(t)[:1]
	var log syncBuffer
	o := fakeOptions(runs, cs, t.TempDir())
	o.Jobs = 1
	slow := failingFor("offline_burst")
	o.Load = func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		time.Sleep(15 * time.Millisecond)
		return slow(ctx, ref)
	}
	o.Progress = NewProgress(&log, false, false)
	o.Progress.Every = 40 * time.Millisecond
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	got := log.String()
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	var progress []string
	for _, l := range lines {
		if strings.Contains(l, " progress: ") {
			progress = append(progress, l)
		}
	}
	// 18 runs × ≥ 15 ms ≥ 270 ms at one line per 40 ms.
	if len(progress) < 3 || strings.Contains(got, "\r") {
		t.Fatalf("want ≥ 3 progress lines and no \\r, got:\n%s", got)
	}
	var ts string
	var done, total int
	if _, err := fmt.Sscanf(progress[len(progress)-1], "%s %s progress: %d/%d runs", &ts, &ts, &done, &total); err != nil || total != 18 || done < 1 {
		t.Errorf("progress line %q: %v", progress[len(progress)-1], err)
	}
	if _, err := time.Parse("2006-01-02 15:04:05", strings.Join(strings.Fields(progress[0])[:2], " ")); err != nil {
		t.Errorf("progress line %q has no time stamp: %v", progress[0], err)
	}
	if !strings.Contains(got, "MB/s") || !strings.Contains(got, "ETA") {
		t.Errorf("progress lines lack MB/s or ETA:\n%s", got)
	}
	if n := len(lines); !strings.HasPrefix(lines[n-3], "18 runs × 1 config") || lines[n-2] != "1 run failed:" || !strings.HasPrefix(lines[n-1], "  offline_burst: load: tokenizer") {
		t.Errorf("the log does not end with the summary and the failed run:\n%s", got)
	}
}

// syncBuffer is a bytes.Buffer safe for the progress goroutine and the
// test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
