package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// lockstep runs replay and watch in turns on one virtual clock, so a test
// replays a run of half an hour with no wall-clock wait: when replay would
// sleep until its next line is due, the watcher polls once; when the
// watcher sleeps, replay writes on. After replay ends (or the watcher
// returns) each side's sleeps only advance the clock.
type lockstep struct {
	mu                   sync.Mutex
	now                  time.Time
	toWatch, toReplay    chan struct{}
	replayDone, watchEnd atomic.Bool
	closeOnce            sync.Once
}

func newLockstep() *lockstep {
	return &lockstep{now: time.Unix(1e9, 0), toWatch: make(chan struct{}), toReplay: make(chan struct{})}
}

func (l *lockstep) advance(d time.Duration) {
	l.mu.Lock()
	l.now = l.now.Add(d)
	l.mu.Unlock()
}

func (l *lockstep) clockNow() time.Time { l.mu.Lock(); defer l.mu.Unlock(); return l.now }

func (l *lockstep) replayClock() replayClock {
	return replayClock{now: l.clockNow, sleep: func(_ context.Context, d time.Duration) error {
		l.advance(d)
		if l.watchEnd.Load() {
			return nil
		}
		l.toWatch <- struct{}{}
		<-l.toReplay
		return nil
	}}
}

func (l *lockstep) watchClock() replayClock {
	return replayClock{now: l.clockNow, sleep: func(_ context.Context, d time.Duration) error {
		if l.replayDone.Load() {
			l.advance(d)
			return nil
		}
		l.toReplay <- struct{}{}
		if _, ok := <-l.toWatch; !ok {
			l.advance(d)
		}
		return nil
	}}
}

// endReplay marks replay finished and wakes a waiting watcher.
func (l *lockstep) endReplay() {
	l.replayDone.Store(true)
	l.closeOnce.Do(func() { close(l.toWatch) })
}

// watchOutcome is what one replay+watch produced.
type watchOutcome struct {
	err             error
	w               *watcher
	beforeReplayEnd bool
	size            int64
	jsonDoc         map[string]any
}

// replayAndWatch replays the run at src into a temporary directory at
// 50× on a lockstep clock and watches it there (poll 1 s, idle timeout
// 60 s, both virtual).
func replayAndWatch(t *testing.T, src string) watchOutcome {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "live")
	l := newLockstep()
	replayErr := make(chan error, 1)
	go func() {
		_, err := replay(context.Background(), src, dst, 50, l.replayClock())
		l.endReplay()
		replayErr <- err
	}()
	// The watcher starts once replay has written the sidecars and its
	// first lines and waits for its first turn.
	if _, ok := <-l.toWatch; !ok {
		t.Log("replay ended before its first wait")
	}
	f := &watchFlags{poll: time.Second, idle: time.Minute, load: loadFlags{tokenizer: "words"}}
	w := &watcher{flags: f, arg: dst, stdout: io.Discard, stderr: io.Discard, params: core.DefaultParams(),
		target: core.DefaultStopTarget(), clock: l.watchClock()}
	err := w.watch(context.Background())
	out := watchOutcome{err: err, w: w, beforeReplayEnd: !l.replayDone.Load()}
	l.watchEnd.Store(true)
	if !l.replayDone.Load() {
		go func() {
			for range l.toReplay {
			}
		}()
		select {
		case l.toReplay <- struct{}{}: // replay may be waiting for its turn back
		default:
		}
	}
	if rerr := <-replayErr; rerr != nil {
		t.Fatalf("replay: %v", rerr)
	}
	st, serr := os.Stat(filepath.Join(dst, "events.jsonl"))
	if serr != nil {
		t.Fatal(serr)
	}
	out.size = st.Size()
	if raw, jerr := os.ReadFile(f.jsonPath); jerr == nil {
		if jerr := json.Unmarshal(raw, &out.jsonDoc); jerr != nil {
			t.Fatalf("watch JSON: %v", jerr)
		}
	}
	return out
}

// archiveStop is the earliest stop of the finished run at dir, analysed
// as `analyze` does (columnar.Load, words tokenizer, default parameters),
// independently of watch.
func archiveStop(t *testing.T, dir string) (core.EarliestStop, core.Verdict) {
	t.Helper()
	run, err := columnar.ResolveRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := columnar.Load(context.Background(), run, columnar.IngestOptions{Counter: tokenizer.Words{}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	cr := core.NewRun(&l.Samples, l.Info)
	p := core.DefaultParams()
	full, err := cr.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	es, err := cr.EarliestStopOf(p, full, core.DefaultStopTarget())
	if err != nil {
		t.Fatal(err)
	}
	return es, full.Outcome().Verdict
}

// liveSynthRun generates the first run of synth.AccuracySuite(seed) whose
// name has the prefix, or the preset when seed is 0.
func liveSynthRun(t *testing.T, seed uint64, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if seed == 0 {
		return presetRun(t, dir, name, 1, nil)
	}
	for _, r := range synth.AccuracySuite(seed) {
		if strings.HasPrefix(r.Name, name) {
			if _, err := synth.Generate(dir, r.Spec); err != nil {
				t.Fatal(err)
			}
			return dir
		}
	}
	t.Fatalf("no suite run %s", name)
	return ""
}

// TestWatchCertifiesDuringReplay: replayed at 50×, a planted clean run
// (suite seed 1, run 013) and a staircase (preset
// long_context_staircase) are certified before the replay ends, at the
// prefix, with the values and intervals, that the archive analysis of
// the finished run (core.EarliestStopOf) finds; watch read each byte it
// decoded once, and wrote a JSON result whose earliest_stop says so.
func TestWatchCertifiesDuringReplay(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		name string
	}{{1, "013_clean_above"}, {0, "long_context_staircase"}} {
		src := liveSynthRun(t, c.seed, c.name)
		want, _ := archiveStop(t, src)
		if !want.Found {
			t.Fatalf("%s: the archive analysis finds no stop (%s): not a test of watch", c.name, want.Reason)
		}
		got := replayAndWatch(t, src)
		if got.err != nil {
			t.Fatalf("%s: watch: %v", c.name, got.err)
		}
		if !got.beforeReplayEnd {
			t.Errorf("%s: certified only after the replay ended", c.name)
		}
		w := got.w
		if w.last.NSuperPasses != want.Stop.NSuperPasses || w.last.TPSSystem != want.Stop.TPSSystem ||
			w.last.TPSSystemCI != want.Stop.TPSSystemCI || w.last.TPOTP50Ns != want.Stop.TPOTP50Ns ||
			w.last.TPOTP50CI != want.Stop.TPOTP50CI || w.last.CutNs != want.Stop.CutNs {
			t.Errorf("%s: watch certified\n%+v\nthe archive's stop\n%+v", c.name, w.last, want.Stop)
		}
		if w.growths < w.last.NSuperPasses {
			t.Errorf("%s: %d polls found new lines before super-pass %d was certified: not followed as it grew", c.name, w.growths, w.last.NSuperPasses)
		}
		if w.bytesRead != w.follow.Fed() || w.bytesRead >= got.size {
			t.Errorf("%s: read %d bytes, decoded %d, the file has %d", c.name, w.bytesRead, w.follow.Fed(), got.size)
		}
		es, _ := got.jsonDoc["earliest_stop"].(map[string]any)
		if es == nil || es["found"] != true || es["stop_at_s"] != want.StopAtS || es["stop_agrees"] != nil {
			t.Errorf("%s: JSON earliest_stop %v, want found, stop_at_s %v, stop_agrees null", c.name, es, want.StopAtS)
		}
	}
}

// TestWatchEndsWithVerdict: a planted drift (preset long_context_drift_up)
// is never certified, and a truncated run (preset truncated: no
// session.ended, its last line cut) ends, after the idle timeout, with
// its final verdict: the exit says the verdict the archive analysis of
// the same file gives. Either way watch read the whole file exactly once.
func TestWatchEndsWithVerdict(t *testing.T) {
	for _, name := range []string{"long_context_drift_up", "truncated"} {
		src := liveSynthRun(t, 0, name)
		want, verdict := archiveStop(t, src)
		got := replayAndWatch(t, src)
		var ve verdictExit
		if !errors.As(got.err, &ve) {
			t.Fatalf("%s: watch returned %v, want a final verdict", name, got.err)
		}
		if want.Found || ve.verdict != verdict || ve.code != verdictExitOf(verdict).code || ve.code == exitOK {
			t.Errorf("%s: exit %d (%s); the archive: verdict %s, stop found %v", name, ve.code, ve.verdict, verdict, want.Found)
		}
		if name == "long_context_drift_up" && (verdict != core.VerdictDriftingUp || got.w.streak >= core.DefaultStopTarget().Confirm) {
			t.Errorf("drift: verdict %s, certification streak %d", verdict, got.w.streak)
		}
		if got.w.bytesRead != got.size || got.w.follow.Fed() != got.size {
			t.Errorf("%s: read %d bytes, decoded %d, the file has %d", name, got.w.bytesRead, got.w.follow.Fed(), got.size)
		}
	}
}
