package sweep

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// TestLoadRunDefersTokenizerOnHit: a run loaded through the column cache
// with a tokenizer from the compiled cache builds the tokenizer's tables
// only for a decode — a miss, whose counts are those of a tokenizer
// loaded from its JSON — and never for a hit, which needs its identity
// alone (the cache's key) and gets the miss's columns.
func TestLoadRunDefersTokenizerOnHit(t *testing.T) {
	run := cleanRampRun(t)
	tokPath := filepath.Join(repoRoot(t), "columnar", "tokenizer", "testdata", "tiny", "tokenizer.json")
	cacheDir := t.TempDir()
	load := func() *LoadedRun {
		t.Helper()
		// A new loader per load, as a new process: it shares no counter.
		l := NewRunLoader(LoaderOptions{Cache: &columnar.Cache{Dir: cacheDir}, Tokenizer: tokPath, TokenizerCache: cacheDir})
		lr, err := l.LoadRun(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		return lr
	}
	fill := load() // parses the JSON and stores it: loaded
	if fill.CacheHit {
		t.Fatalf("first load: a cache hit in a new cache")
	}
	if !slices.ContainsFunc(fill.Samples.OutTokens, func(n int64) bool { return n > 0 }) {
		t.Fatalf("first load: no sample's tokens counted")
	}
	// The compiled entry exists now: a miss of the column cache (a new
	// column cache, the tokenizer's kept) loads the deferred tables.
	if err := os.RemoveAll(filepath.Join(cacheDir, "ids")); err != nil {
		t.Fatal(err)
	}
	miss := load()
	if miss.CacheHit {
		t.Fatalf("second load: a hit without the cache's index")
	}
	if tok := miss.Counter.(*tokenizer.Tokenizer); !tok.Loaded() {
		t.Errorf("a decode's tokenizer is not loaded")
	}
	hit := load()
	if !hit.CacheHit {
		t.Fatalf("third load: not a cache hit")
	}
	if tok := hit.Counter.(*tokenizer.Tokenizer); tok.Loaded() {
		t.Errorf("a cache hit built the tokenizer's tables")
	}
	want, err := tokenizer.Load(tokPath)
	if err != nil {
		t.Fatal(err)
	}
	if hit.Tokenizer != want.Identity() || miss.Tokenizer != want.Identity() {
		t.Errorf("tokenizer %q (hit), %q (miss); want %q", hit.Tokenizer, miss.Tokenizer, want.Identity())
	}
	for name, lr := range map[string]*LoadedRun{"miss": miss, "hit": hit} {
		if !reflect.DeepEqual(*lr.Samples, *fill.Samples) {
			t.Errorf("%s: samples differ from the first load's", name)
		}
	}
}

// cleanRampRun is the shared parity run conc_clean_ramp's directory, or
// skips the test when the shared material is not there.
func cleanRampRun(t *testing.T) string {
	t.Helper()
	run := filepath.Join(repoRoot(t), "..", "shared", "parity", "runs", "conc_clean_ramp")
	if _, err := os.Stat(run); err != nil {
		t.Skipf("shared parity run not available: %v", err)
	}
	return run
}

// TestLoadRunStoreLater: with StoreLater a decoded run's cache entry is
// written beside the caller and is on disk once WaitStored returns (nil,
// again on a second call); the next load is a hit with the same columns
// as the decode, and has nothing to wait for. The entry is the one Fill
// writes: a load without StoreLater into another cache names the same
// files.
func TestLoadRunStoreLater(t *testing.T) {
	run := cleanRampRun(t)
	load := func(dir string, later bool) *LoadedRun {
		t.Helper()
		l := NewRunLoader(LoaderOptions{Cache: &columnar.Cache{Dir: dir}, Counter: tokenizer.Words{}, StoreLater: later,
			Warn: func(w string) { t.Errorf("warning: %s", w) }})
		lr, err := l.LoadRun(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		return lr
	}
	names := func(dir string) []string {
		t.Helper()
		var got []string
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				got = append(got, rel)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		return got
	}
	later, now := t.TempDir(), t.TempDir()
	fill := load(later, true)
	if fill.CacheHit {
		t.Fatal("first load: a hit in a new cache")
	}
	if err := fill.WaitStored(); err != nil {
		t.Fatalf("WaitStored: %v", err)
	}
	if err := fill.WaitStored(); err != nil {
		t.Fatalf("WaitStored again: %v", err)
	}
	if err := load(now, false).WaitStored(); err != nil {
		t.Fatalf("WaitStored of a load that stored the entry itself: %v", err)
	}
	if got, want := names(later), names(now); !slices.Equal(got, want) || len(got) < 3 {
		t.Fatalf("cache files written later %q, by Fill %q", got, want)
	}
	hit := load(later, true)
	if !hit.CacheHit {
		t.Fatal("second load: not a hit after WaitStored")
	}
	if err := hit.WaitStored(); err != nil {
		t.Fatalf("WaitStored of a hit: %v", err)
	}
	if !slices.Equal(hit.Samples.OutTokens, fill.Samples.OutTokens) || !slices.Equal(hit.Samples.IssueNs, fill.Samples.IssueNs) {
		t.Fatal("the hit's columns differ from the decode's")
	}
}
