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
	real, err := os.ReadFile(filepath.Join("..", "testdata", "goodrun", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
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
	real, err := os.ReadFile(filepath.Join("..", "testdata", "goodrun", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	uuid, wantB := firstCompleteLatency(t, real)
	base := t.TempDir()
	dir := cacheDirOfMode(t, base, 0o777)
	c := &Cache{Dir: dir}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	// The forged entry is B's columns with one latency moved 7 ms, written
	// by the cache's own writer elsewhere and planted under B's name.
	runB := copyGoodRun(t, filepath.Join(base, "b"), real, mtime)
	if _, hit, err := c.Load(context.Background(), runB, opts); err != nil || hit {
		t.Fatalf("filling from B: hit %v, %v", hit, err)
	}
	shaB := fmt.Sprintf("%x", sha256.Sum256(real))
	ptr, _ := filepath.Glob(filepath.Join(dir, "*-"+shaB[:32]+".entry"))
	genuine, _ := filepath.Glob(filepath.Join(dir, "*-"+shaB[:32]+"-*.arrow"))
	if len(ptr) != 1 || len(genuine) != 1 {
		t.Fatalf("B's pointer %v and entry %v, want one each", ptr, genuine)
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
		t.Fatalf("no sample %s in B's entry", uuid)
	}
	l.Samples.LatencyNs[i] += 7_000_000
	l.EventsSHA256 = shaB
	key := strings.TrimSuffix(filepath.Base(ptr[0]), "-"+shaB[:32]+".entry")
	other := filepath.Join(base, "other")
	if err := (&cache.Cache{Dir: other}).Store(key, l); err != nil {
		t.Fatal(err)
	}
	made, _ := filepath.Glob(filepath.Join(other, key+"-"+shaB[:32]+"-*.arrow"))
	if len(made) != 1 {
		t.Fatalf("forged entry %v, want one", made)
	}
	b, err := os.ReadFile(made[0])
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(genuine[0])
	name := filepath.Base(made[0])
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(dir, name), 0o666); err != nil { // past the umask
		t.Fatal(err)
	}
	if err := os.WriteFile(ptr[0], []byte(name+"\n"), 0o644); err != nil {
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
