package columnar

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/columnar/cache"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// TestSharedCacheRefusesForgedIdentity is issue 30's "a shared cache
// trusts its writers". Run B is testdata/goodrun; run A, the forgery, is
// the same log with its first COMPLETE timestamp 7 ms later (same size,
// same mtime). A is cached, then B's identity file under ids/ is replaced
// by A's (what another writer of a team's --cache-dir can do). In a
// directory of mode 0777 the lookup hashes B's events file, finds it is
// not the recorded digest, and decodes B: B's latency, as read from its
// raw lines with encoding/json (firstCompleteLatency). In a private
// 0700 directory the same forgery is trusted (README, "Cache": the fast
// path reads no events file) and serves A's latency.
func TestSharedCacheRefusesForgedIdentity(t *testing.T) {
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	real := goodrunEvents(t)
	key := []byte(`"event_type":"sample.complete","timestamp_ns":`)
	at := bytes.Index(real, key) + len(key)
	end := at + bytes.IndexByte(real[at:], ',')
	ts, err := strconv.ParseInt(string(real[at:end]), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	forged := slices.Clone(real)
	if s := strconv.FormatInt(ts+7_000_000, 10); len(s) == end-at {
		copy(forged[at:end], s)
	} else {
		t.Fatal("the forgery changed the log's length")
	}
	uuid, wantB := firstCompleteLatency(t, real)
	_, wantA := firstCompleteLatency(t, forged)
	if wantA != wantB+7_000_000 {
		t.Fatalf("independent latencies %d and %d, want 7 ms apart", wantA, wantB)
	}

	for _, tc := range []struct {
		name    string
		mode    os.FileMode
		wantHit bool
		want    int64
	}{
		{"shared 0777", 0o777, false, wantB},
		{"private 0700", 0o700, true, wantA},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir := cacheDirOfMode(t, base, tc.mode)
			c := &Cache{Dir: dir}
			opts := contract.IngestOptions{Counter: tokenizer.Words{}}
			runA := copyGoodRun(t, filepath.Join(base, "a"), forged, mtime)
			runB := copyGoodRun(t, filepath.Join(base, "b"), real, mtime)
			ids := func() []string {
				m, _ := filepath.Glob(filepath.Join(dir, "ids", "*"))
				return m
			}
			if _, hit, err := c.Load(context.Background(), runA, opts); err != nil || hit {
				t.Fatalf("filling from A: hit %v, %v", hit, err)
			}
			idsA := ids()
			if _, hit, err := c.Load(context.Background(), runB, opts); err != nil || hit {
				t.Fatalf("filling from B: hit %v, %v", hit, err)
			}
			var idA, idB string
			for _, p := range ids() {
				if slices.Contains(idsA, p) {
					idA = p
				} else {
					idB = p
				}
			}
			if len(idsA) != 1 || idB == "" {
				t.Fatalf("identity files %v then %v, want one then two", idsA, ids())
			}
			// The forgery: B's identity names A's digest, hence A's entry
			// (the key, size and mtime, is the same).
			b, err := os.ReadFile(idA)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(idB, b, 0o644); err != nil {
				t.Fatal(err)
			}
			l, hit, err := c.Load(context.Background(), runB, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := latencyOf(t, l, uuid); hit != tc.wantHit || got != tc.want {
				t.Fatalf("B after the forgery: hit %v, latency %d; want hit %v, latency %d (B's own %d, A's %d)",
					hit, got, tc.wantHit, tc.want, wantB, wantA)
			}
		})
	}
}

// TestSharedCacheRefusesForeignEntry: in a cache directory of mode 0777,
// an entry file another writer could have made (here mode 0666) under
// run B's name — A's columns, their checksum right, B's pointer naming
// it — is a miss: the events hash matches B's, but a hash of the log
// cannot vouch for columns someone else wrote. B's latency is the one
// read from its raw lines (firstCompleteLatency); the old cache served
// A's.
func TestSharedCacheRefusesForeignEntry(t *testing.T) {
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	real := goodrunEvents(t)
	uuid, wantB := firstCompleteLatency(t, real)
	base := t.TempDir()
	dir := cacheDirOfMode(t, base, 0o777)
	c := &Cache{Dir: dir}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	// The forged entry is B's columns with one latency moved 7 ms, written
	// by the cache's own writer elsewhere and planted under B's name.
	runB := copyGoodRun(t, filepath.Join(base, "b"), real, mtime)
	f := forgeEntry(t, c, runB, real, uuid)
	os.Remove(f.genuine)
	name := filepath.Base(f.path)
	if err := os.WriteFile(filepath.Join(dir, name), f.bytes, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, name), 0o666); err != nil { // past the umask
		t.Fatal(err)
	}
	if err := os.WriteFile(f.pointer, []byte(name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, hit, err := c.Load(context.Background(), runB, opts)
	if err != nil {
		t.Fatal(err)
	}
	if lat := latencyOf(t, got, uuid); hit || lat != wantB {
		t.Fatalf("B with a foreign entry: hit %v, latency %d; want a miss and B's own %d (forged %d)", hit, lat, wantB, wantB+7_000_000)
	}
}

// cacheDirOfMode makes base/cache with mode (set past the umask).
func cacheDirOfMode(t *testing.T, base string, mode os.FileMode) string {
	t.Helper()
	dir := filepath.Join(base, "cache")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}

// forgery is a forged cache entry for a run (forgeEntry): its bytes, a
// valid entry file (checksum and name right) made by the cache's own
// writer in another directory at path, and the shared cache's genuine
// entry and pointer for the same run.
type forgery struct {
	bytes                  []byte
	path, genuine, pointer string
}

// forgeEntry fills c from run (whose log is events) and forges its entry:
// the run's columns with the latency of sample uuid moved 7 ms.
func forgeEntry(t *testing.T, c *Cache, run *contract.Run, events []byte, uuid string) forgery {
	t.Helper()
	if _, hit, err := c.Load(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}}); err != nil || hit {
		t.Fatalf("filling: hit %v, %v", hit, err)
	}
	sha := fmt.Sprintf("%x", sha256.Sum256(events))
	ptr, _ := filepath.Glob(filepath.Join(c.Dir, "*-"+sha[:32]+".entry"))
	genuine, _ := filepath.Glob(filepath.Join(c.Dir, "*-"+sha[:32]+"-*.cols"))
	if len(ptr) != 1 || len(genuine) != 1 {
		t.Fatalf("pointer %v and entry %v, want one each", ptr, genuine)
	}
	l, err := cache.ReadEntry(genuine[0])
	if err != nil {
		t.Fatal(err)
	}
	i := -1
	for j := 0; j < l.Samples.Len(); j++ {
		if l.UUID(j) == uuid {
			i = j
		}
	}
	if i < 0 {
		t.Fatalf("no sample %s in the entry", uuid)
	}
	l.Samples.LatencyNs[i] += 7_000_000
	l.EventsSHA256 = sha
	key := strings.TrimSuffix(filepath.Base(ptr[0]), "-"+sha[:32]+".entry")
	other := filepath.Join(filepath.Dir(c.Dir), "other")
	if err := (&cache.Cache{Dir: other}).Store(key, l); err != nil {
		t.Fatal(err)
	}
	made, _ := filepath.Glob(filepath.Join(other, key+"-"+sha[:32]+"-*.cols"))
	if len(made) != 1 {
		t.Fatalf("forged entry %v, want one", made)
	}
	b, err := os.ReadFile(made[0])
	if err != nil {
		t.Fatal(err)
	}
	return forgery{bytes: b, path: made[0], genuine: genuine[0], pointer: ptr[0]}
}

// TestSharedCacheEntrySwappedAfterCheck is the race left in a shared
// cache's entry check (issue 30): between the owner and mode check of an
// entry file and its read, another writer renames a forged entry over it
// (or a link to one). In a cache directory of mode 0777 the pointer
// names an entry file F; at F's path lies a file of the user's own (mode
// 0644, passing the check) holding the genuine columns, and the hook
// between check and read (cache.EntryJudged) puts F — a valid entry, B's
// columns with one latency moved 7 ms (forgeEntry), mode 0666 — or a
// symbolic link to it in its place. The lookup reads the descriptor it
// judged: the genuine bytes, which are not F's checksum, so the entry is
// discarded and B decoded; B's latency is the one read from its raw
// lines (firstCompleteLatency). A read that reopened the path served
// the forged latency.
func TestSharedCacheEntrySwappedAfterCheck(t *testing.T) {
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	real := goodrunEvents(t)
	uuid, wantB := firstCompleteLatency(t, real)
	for _, swap := range []string{"rename", "symlink"} {
		t.Run(swap, func(t *testing.T) {
			base := t.TempDir()
			dir := cacheDirOfMode(t, base, 0o777)
			c := &Cache{Dir: dir}
			runB := copyGoodRun(t, filepath.Join(base, "b"), real, mtime)
			f := forgeEntry(t, c, runB, real, uuid)
			genuine, err := os.ReadFile(f.genuine)
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(f.genuine)
			target := filepath.Join(dir, filepath.Base(f.path))
			if err := os.WriteFile(target, genuine, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f.pointer, []byte(filepath.Base(target)+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			swapped := 0
			cache.EntryJudged = func(path string) {
				if path != target {
					return
				}
				swapped++
				planted := filepath.Join(base, "planted")
				if err := os.WriteFile(planted, f.bytes, 0o666); err != nil {
					t.Error(err)
				}
				os.Chmod(planted, 0o666)
				if swap == "symlink" {
					os.Remove(path)
					err = os.Symlink(planted, path)
				} else {
					err = os.Rename(planted, path)
				}
				if err != nil {
					t.Error(err)
				}
			}
			defer func() { cache.EntryJudged = nil }()
			got, hit, err := c.Load(context.Background(), runB, contract.IngestOptions{Counter: tokenizer.Words{}})
			if err != nil {
				t.Fatal(err)
			}
			if swapped != 1 {
				t.Fatalf("the hook swapped %d times, want once (was the entry judged?)", swapped)
			}
			if lat := latencyOf(t, got, uuid); hit || lat != wantB {
				t.Fatalf("B with its entry swapped after the check: hit %v, latency %d; want a miss and B's own %d (forged %d)",
					hit, lat, wantB, wantB+7_000_000)
			}
		})
	}
}

// goodrunEvents is the raw events.jsonl of testdata/goodrun, the log the
// shared-cache tests forge entries against.
func goodrunEvents(t *testing.T) []byte {
	t.Helper()
	real, err := os.ReadFile(filepath.Join("..", "testdata", "goodrun", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return real
}
