package columnar

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/columnar/cache"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// copyGoodRun copies the repository's testdata/goodrun into dir with
// events.jsonl replaced by events (when non-nil), and sets every file's
// mtime to mtime.
func copyGoodRun(t *testing.T, dir string, events []byte, mtime time.Time) *contract.Run {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "testdata", "goodrun"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"events.jsonl", "config.yaml", "run_meta.json", "sample_idx_map.json"} {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatalf("%v (the committed reliability corpus is needed)", err)
		}
		if name == "events.jsonl" && events != nil {
			b = events
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	run, err := ResolveRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestCacheIdenticalCopiesNameTheirOwnFile: two byte-identical copies of
// a log with the same mtime (cp -a, rsync -a) are two files (each is
// decoded once, then hits), and an entry's problems always name the file
// being loaded (they once named the first copy's).
func TestCacheIdenticalCopiesNameTheirOwnFile(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "testdata", "goodrun", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	bad := []byte(strings.Replace(string(good), "\n", "\n[1,2,3]\n", 1)) // line 2 is not an object
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := t.TempDir()
	x := copyGoodRun(t, filepath.Join(base, "x"), bad, mtime)
	y := copyGoodRun(t, filepath.Join(base, "y"), bad, mtime)
	c := &Cache{Dir: filepath.Join(base, "cache")}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	for i, run := range []*contract.Run{x, y, x, y} {
		tab, hit, err := c.Ingest(context.Background(), run, opts)
		if err != nil {
			t.Fatal(err)
		}
		if hit != (i >= 2) {
			t.Errorf("load %d: hit %v", i, hit)
		}
		ws := tab.Summary.Warnings()
		want := run.EventsPath + ":2: JSON value is not an object"
		if len(ws) != 1 || ws[0] != want {
			t.Errorf("run %d warnings %q, want [%q]", i, ws, want)
		}
	}
}

// TestCacheCorruptEntryRebuilt: a corrupt, truncated or emptied entry is
// discarded with a warning and rebuilt; the table is the same as a fresh
// ingest.
func TestCacheCorruptEntryRebuilt(t *testing.T) {
	base := t.TempDir()
	run := copyGoodRun(t, filepath.Join(base, "r"), nil, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	c := &Cache{Dir: filepath.Join(base, "cache")}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	tab, hit, err := c.Ingest(context.Background(), run, opts)
	if err != nil || hit {
		t.Fatalf("first ingest: hit %v, %v", hit, err)
	}
	want := tab.Samples()
	entries, _ := filepath.Glob(filepath.Join(c.Dir, "*.cols"))
	if len(entries) != 1 {
		t.Fatalf("%d entries, want 1", len(entries))
	}
	orig, err := os.ReadFile(entries[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		corrupt func([]byte) []byte
	}{
		{"flipped byte", func(b []byte) []byte { b[len(b)/2] ^= 0x01; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)/3] }},
		{"empty", func([]byte) []byte { return nil }},
		{"not arrow", func([]byte) []byte { return []byte("ARROW1 but not really") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(entries[0], tc.corrupt(append([]byte(nil), orig...)), 0o600); err != nil {
				t.Fatal(err)
			}
			r, tab, hit := resolveCacheIngest(t, c, run.Dir, opts)
			if hit {
				t.Fatal("a corrupt entry was used")
			}
			if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "cache: discarding "+entries[0]) {
				t.Errorf("warnings %q", r.Warnings)
			}
			if got := tab.Samples(); got.Len() != want.Len() || got.Len() != 96 {
				t.Errorf("%d samples, want %d", got.Len(), want.Len())
			}
			b, err := os.ReadFile(entries[0])
			if err != nil || string(b) != string(orig) {
				t.Errorf("entry not rebuilt to the original bytes (%v)", err)
			}
		})
	}
}

// TestCacheConcurrentWriters: many goroutines, each with its own Cache
// value on one directory (as separate processes would be), ingest the
// same runs at once: every result is complete, and the directory ends
// with one valid entry per run and no temporaries.
func TestCacheConcurrentWriters(t *testing.T) {
	base := t.TempDir()
	var runs []*contract.Run
	for i := range 4 {
		runs = append(runs, copyGoodRun(t, filepath.Join(base, "r", string(rune('a'+i))), nil, time.Unix(1_700_000_000+int64(i), 0)))
	}
	dir := filepath.Join(base, "cache")
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(runs))
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &Cache{Dir: dir}
			for _, run := range runs {
				r, err := ResolveRun(context.Background(), run.Dir)
				if err != nil {
					errs <- err
					return
				}
				tab, _, err := c.Ingest(context.Background(), r, contract.IngestOptions{Counter: tokenizer.Words{}, Workers: 1})
				if err != nil {
					errs <- err
					return
				}
				if s := tab.Samples(); s.Len() != 96 {
					errs <- &contract.ParseError{File: r.EventsPath, Err: os.ErrInvalid}
				}
				for _, w := range r.Warnings {
					if strings.Contains(w, "cache:") {
						errs <- &contract.ParseError{File: w, Err: os.ErrInvalid}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "*.cols"))
	if len(entries) != len(runs) {
		t.Errorf("%d entries, want %d", len(entries), len(runs))
	}
	for _, e := range entries {
		l, err := cache.ReadEntry(e)
		if err != nil {
			t.Errorf("%s: %v", e, err)
		} else if l.Samples.Len() != 96 {
			t.Errorf("%s: %d samples, want 96", e, l.Samples.Len())
		}
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(tmps) != 0 {
		t.Errorf("temporaries left: %v", tmps)
	}
}

// resolveCacheIngest resolves dir afresh, as a new process would, and
// ingests it through c, failing the test on an error; the caller releases
// the table.
func resolveCacheIngest(t *testing.T, c *Cache, dir string, opts contract.IngestOptions) (*contract.Run, *contract.Table, bool) {
	t.Helper()
	run, err := ResolveRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	tab, hit, err := c.Ingest(context.Background(), run, opts)
	if err != nil {
		t.Fatal(err)
	}
	return run, tab, hit
}
