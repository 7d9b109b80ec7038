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
	run := filepath.Join(repoRoot(t), "..", "shared", "parity", "runs", "conc_clean_ramp")
	if _, err := os.Stat(run); err != nil {
		t.Skipf("shared parity run not available: %v", err)
	}
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
