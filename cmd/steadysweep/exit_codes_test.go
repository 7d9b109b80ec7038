package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sweep"
)

// TestExitCodeByErrorType: every exit-code path of exitCode, one row
// each, named by the error type (or sentinel) that selects it, wrapped as
// the commands wrap it — the code comes from errors.Is/As, never from the
// message (the README's table: 0 result, 1 failure, 2 usage, 3 partial
// sweep, 130 interrupted, watch's 3–6 verdicts).
func TestExitCodeByErrorType(t *testing.T) {
	tokErr := &sweep.TokenizerError{Err: errors.New("tokenizer: no local tokenizer for m")}
	for _, c := range []struct {
		name string
		err  error
		code int
	}{
		{"nil", nil, exitOK},
		{"usageError (usagef)", usagef("--jobs %d: want 1 to %d runs at once", 0, sweep.MaxJobs), exitUsage},
		{"usageError wrapped", fmt.Errorf("--grid: %w", usagef("bad")), exitUsage},
		{"sweep.TokenizerError through loadError", loadError(tokErr), exitUsage},
		{"sweep.TokenizerError through loadError, resolve hint passed over", loadError(withResolveHint(tokErr, "hint")), exitUsage},
		{"sweep.TokenizerError in a sweep row (no loadError)", tokErr, exitFailure},
		{"core.ErrSuperpassSize as usageError", usageError{fmt.Errorf("watch d: %w", core.ErrSuperpassSize)}, exitUsage},
		{"partialError", partialError{"2 of 3 runs failed"}, exitPartial},
		{"sweepOutcome: some runs failed", sweepOutcome(sweep.Summary{Runs: 3, Rows: 3, ErrorRuns: 1,
			RowsByStatus: map[string]int{sweep.StatusError: 1, "windowable": 2}}), exitPartial},
		{"sweepOutcome: every row an error", sweepOutcome(sweep.Summary{Runs: 2, Rows: 2, ErrorRuns: 2,
			RowsByStatus: map[string]int{sweep.StatusError: 2}}), exitFailure},
		{"context.Canceled", fmt.Errorf("%w; rows written so far are kept", context.Canceled), exitInterrupted},
		{"sweep.ResolveError", withResolveHint(&sweep.ResolveError{Err: errors.New("no such events file: x")}, "pass a run directory"), exitFailure},
		{"sweep.IngestError", &sweep.IngestError{Path: "e.jsonl", Err: errors.New("truncated")}, exitFailure},
		{"columnar.ErrSeveralRuns", &sweep.ResolveError{Err: fmt.Errorf("wrapped: %w", columnar.ErrSeveralRuns)}, exitFailure},
		{"verdictExit steady", verdictExitOf(core.VerdictSteadyState), exitWatchSteady},
		{"verdictExit drifting", verdictExitOf(core.VerdictDriftingDown), exitWatchDrifting},
		{"verdictExit anomaly", verdictExitOf(core.VerdictAnomaly), exitWatchAnomaly},
		{"verdictExit not found", verdictExitOf(core.VerdictNotFound), exitWatchNotFound},
	} {
		if got := exitCode(c.err, io.Discard); got != c.code {
			t.Errorf("%s (%v): exit %d, want %d", c.name, c.err, got, c.code)
		}
	}
}

// TestResolveHintByType: analyze adds its "(pass a run directory …)" hint
// to a path it could not resolve, by the error's type: not to a path
// holding several runs (columnar.ErrSeveralRuns), whose message says what
// to pass, nor to an error of a later stage. Each path is resolved by
// columnar.ResolveRun from a file written here.
func TestResolveHintByType(t *testing.T) {
	report := twoBenchmarkReport(t)
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	twoLogs := t.TempDir()
	for _, name := range []string{"a.json", "b.json"} {
		if err := os.WriteFile(filepath.Join(twoLogs, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const hint = "(pass a run directory holding events.jsonl, or the events file itself)"
	for _, c := range []struct {
		path     string
		several  bool
		wantHint bool
	}{
		{report, true, false},                                        // a report of 2 benchmarks: pass #0 or #1
		{twoLogs, true, false},                                       // 2 logs in a directory: pass one of them
		{filepath.Join(t.TempDir(), "nope"), false, true},            // no such file
		{filepath.Join("..", "..", "testdata"), false, true},         // a directory without a run
		{filepath.Join(goodRun, "events.jsonl") + "#1", false, true}, // #N of an events file
	} {
		_, rerr := columnar.ResolveRun(context.Background(), c.path)
		if rerr == nil {
			t.Fatalf("%s: resolved", c.path)
		}
		if got := errors.Is(rerr, columnar.ErrSeveralRuns); got != c.several {
			t.Errorf("%s: errors.Is(ErrSeveralRuns) = %v, want %v (%v)", c.path, got, c.several, rerr)
		}
		_, errOut, code := runCLI(t, "analyze", c.path, "--no-cache", "--tokenizer", "words")
		if code != exitFailure || strings.Contains(errOut, hint) != c.wantHint || !strings.Contains(errOut, rerr.Error()) {
			t.Errorf("analyze %s: exit %d, stderr %q; want exit 1, ResolveRun's message %q, hint %v", c.path, code, errOut, rerr, c.wantHint)
		}
	}
}
