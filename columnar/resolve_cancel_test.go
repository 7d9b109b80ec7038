package columnar

import (
	"bytes"
	"context"
	"errors"
	"github.com/steadysweep/steadysweep/columnar/internal/coltest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
)

// looksCtx is a context that counts the looks at it (Err) and, at look
// number at, has another goroutine cancel it and waits for that before
// answering: a cancel that lands at a known point of the work, with no
// clock. at <= 0 never cancels (the count of a whole run).
type looksCtx struct {
	context.Context
	looks atomic.Int64
	at    int64
	fire  chan struct{} // closed at look number at
	done  chan struct{} // closed once the other goroutine has cancelled
}

func newLooksCtx(at int64) *looksCtx {
	ctx, cancel := context.WithCancel(context.Background())
	c := &looksCtx{Context: ctx, at: at, fire: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		select {
		case <-c.fire:
			cancel()
		case <-ctx.Done():
		}
	}()
	return c
}

func (c *looksCtx) Err() error {
	if c.looks.Add(1) == c.at {
		close(c.fire)
		<-c.done
	}
	return c.Context.Err()
}

// TestResolveRunCancelledInSampleIndex is issue 30's "SIGINT during a 202
// MiB sample_idx_map.json: 12.7 s" (ResolveRun took no context): a run
// whose sample_idx_map.json holds 150,000 entries (benchlog.SampleIndex,
// 6.8 MB, about a hundred 64 KiB windows) is resolved with a context that
// another goroutine cancels at its 10th look, well inside the parse. The
// resolve ends with context.Canceled and no run, having looked at the
// context only a few more times (it read no further windows); resolved
// again without a cancel, the same run has all 150,000 entries (nothing
// of the cut parse kept), and counts more looks than the cut one made.
func TestResolveRunCancelledInSampleIndex(t *testing.T) {
	const n, at = 150_000, 10
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join("..", "testdata", "goodrun", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	writeTemp(t, dir, "events.jsonl", string(good))
	var idx bytes.Buffer
	if err := benchlog.SampleIndex(&idx, n); err != nil {
		t.Fatal(err)
	}
	writeTemp(t, dir, "sample_idx_map.json", idx.String())

	cut := newLooksCtx(at)
	run, err := ResolveRun(cut, dir)
	if !errors.Is(err, context.Canceled) || run != nil {
		t.Fatalf("cancelled at look %d: run %v, err %v; want no run and context.Canceled", at, run != nil, err)
	}
	// After the cancel: the window's fill, the sidecar reader's, the
	// sidecars' and ResolveRun's own look; 4 more windows would be
	// 6,000 more entries parsed.
	if extra := cut.looks.Load() - at; extra > 4 {
		t.Errorf("%d looks at the context after the cancel, want at most 4 (the parse went on)", extra)
	}

	whole := newLooksCtx(0)
	run, err = ResolveRun(whole, dir)
	if err != nil {
		t.Fatal(err)
	}
	if si := run.Sidecars.SampleIndex; si == nil || si.Len() != n || si.MaxIndex != n-1 {
		t.Fatalf("uncancelled: sample index %+v, want %d entries up to %d (warnings %q)", si, n, n-1, run.Warnings)
	}
	if got := whole.looks.Load(); got < 5*at {
		t.Errorf("a whole parse looked at the context %d times, want one per window (≥ %d): the cut one was not mid-parse", got, 5*at)
	}
}

// gatedReader serves r and, once gateAt bytes have been read, lets
// another goroutine cancel before serving more; it counts the bytes
// served after that cancel.
type gatedReader struct {
	r      *bytes.Reader
	gateAt int
	read   int
	cancel context.CancelFunc
	after  int
	gated  bool
}

func (g *gatedReader) Read(p []byte) (int, error) {
	if g.gated {
		n, err := g.r.Read(p)
		g.after += n
		return n, err
	}
	if g.read+len(p) > g.gateAt {
		p = p[:g.gateAt-g.read]
	}
	n, err := g.r.Read(p)
	if g.read += n; g.read >= g.gateAt {
		done := make(chan struct{})
		go func() { g.cancel(); close(done) }()
		<-done
		g.gated = true
	}
	return n, err
}

// TestParseSampleIndexCancelled: the parse of a 100,000-entry map whose
// reader has another goroutine cancel the context after 1 MiB (about
// 23,000 entries) returns context.Canceled and no index, and reads not
// one byte more from the file.
func TestParseSampleIndexCancelled(t *testing.T) {
	var idx bytes.Buffer
	if err := benchlog.SampleIndex(&idx, 100_000); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := &gatedReader{r: bytes.NewReader(idx.Bytes()), gateAt: 1 << 20, cancel: cancel}
	si, _, err := sidecar.ParseSampleIndex(ctx, g, int64(idx.Len()))
	if !errors.Is(err, context.Canceled) || si != nil {
		t.Fatalf("index %v, err %v; want none and context.Canceled", si != nil, err)
	}
	if g.after != 0 {
		t.Errorf("%d bytes read after the cancel, want 0", g.after)
	}
}

// TestResolveRunCancelledCountingBenchmarks: resolving a GuideLLM report
// of 3,000 benchmarks counts them (a walk of the whole report); a context
// another goroutine cancels at its first look ends that walk with
// context.Canceled instead of the "holds 3000 benchmarks" answer, and
// keeps no index for the report (a second resolve walks it again).
func TestResolveRunCancelledCountingBenchmarks(t *testing.T) {
	path := writeTemp(t, t.TempDir(), "report.json", coltest.MultiBenchmarkReport(3000))
	builds := foreign.GuideLLMIndexBuilds.Load()
	run, err := ResolveRun(newLooksCtx(1), path)
	if !errors.Is(err, context.Canceled) || run != nil {
		t.Fatalf("run %v, err %v; want none and context.Canceled", run != nil, err)
	}
	_, err = ResolveRun(context.Background(), path)
	if !errors.Is(err, ErrSeveralRuns) {
		t.Fatalf("uncancelled: %v, want the several-runs error", err)
	}
	if got := foreign.GuideLLMIndexBuilds.Load() - builds; got != 2 {
		t.Errorf("%d index walks, want 2 (the cancelled one not kept)", got)
	}
}
