package columnar

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zeebo/xxh3"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// firstCompleteLatency reads, independently of the decoder (encoding/json
// over the raw lines), the uuid of the first sample.complete line of a log
// and its latency (complete − first issue).
func firstCompleteLatency(t *testing.T, events []byte) (string, int64) {
	t.Helper()
	issued := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(events))
	for sc.Scan() {
		var ev struct {
			Type string `json:"event_type"`
			TS   int64  `json:"timestamp_ns"`
			UUID string `json:"sample_uuid"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		switch ev.Type {
		case "sample.issued":
			if _, ok := issued[ev.UUID]; !ok {
				issued[ev.UUID] = ev.TS
			}
		case "sample.complete":
			return ev.UUID, ev.TS - issued[ev.UUID]
		}
	}
	t.Fatal("no sample.complete line")
	return "", 0
}

func latencyOf(t *testing.T, l *contract.Loaded, uuid string) int64 {
	t.Helper()
	for i := 0; i < l.Samples.Len(); i++ {
		if l.UUID(i) == uuid {
			return l.Samples.LatencyNs[i]
		}
	}
	t.Fatalf("no sample %s", uuid)
	return 0
}

// TestCacheInPlaceEditIsNotAHit reproduces issue 17 item 10: the events
// file is edited in place at equal size (one digit of a COMPLETE
// timestamp) and its mtime restored (touch -d). The old key (sampled
// fingerprint, size, mtime) served the stale columns; the identity (with
// ctime) changes, so the edit is decoded and the latency is the edited
// file's, as read independently with encoding/json.
func TestCacheInPlaceEditIsNotAHit(t *testing.T) {
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := t.TempDir()
	good, err := os.ReadFile(filepath.Join("..", "testdata", "goodrun", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	orig := paddedOutsideOldFingerprint(t, good)
	run := copyGoodRun(t, filepath.Join(base, "r"), orig, mtime)
	c := &Cache{Dir: filepath.Join(base, "cache")}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	uuid, wantOld := firstCompleteLatency(t, orig)
	missThenHit(t, c, run, opts, uuid, wantOld, "")

	// Bump the first COMPLETE timestamp's last digits: same length.
	at := bytes.Index(orig, []byte(`"event_type":"sample.complete","timestamp_ns":`))
	at += len(`"event_type":"sample.complete","timestamp_ns":`)
	end := at + bytes.IndexByte(orig[at:], ',')
	ts, err := strconv.ParseInt(string(orig[at:end]), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	edited := append([]byte(nil), orig...)
	copy(edited[at:end], strconv.FormatInt(ts+7_000_000, 10))
	if len(strconv.FormatInt(ts+7_000_000, 10)) != end-at {
		t.Fatal("edit changed the length")
	}
	f, err := os.OpenFile(run.EventsPath, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(edited, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(run.EventsPath, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(run.EventsPath); fi.Size() != int64(len(orig)) || !fi.ModTime().Equal(mtime) {
		t.Fatalf("edit changed size or mtime: %d %v", fi.Size(), fi.ModTime())
	}
	_, wantNew := firstCompleteLatency(t, edited)
	if wantNew != wantOld+7_000_000 {
		t.Fatalf("independent latency %d, want %d", wantNew, wantOld+7_000_000)
	}
	run, err = ResolveRun(context.Background(), run.Dir)
	if err != nil {
		t.Fatal(err)
	}
	missThenHit(t, c, run, opts, uuid, wantNew, "after the edit (a stale entry is a hit of the old latency), ")
}

// paddedOutsideOldFingerprint returns the log with filler lines (an
// unknown event type, ignored by the state machine) around its samples,
// sized so that the first COMPLETE timestamp lies outside every byte the
// old cache key hashed (the first and last MiB and 64 windows of 64 KiB
// spread between them): there an edit went unseen.
func paddedOutsideOldFingerprint(t *testing.T, good []byte) []byte {
	t.Helper()
	filler := func(n int) []byte {
		var b bytes.Buffer
		for b.Len() < n {
			b.WriteString(`{"event_type":"test.filler","timestamp_ns":1,"sample_uuid":"","data":"` + strings.Repeat("x", 900) + `"}` + "\n")
		}
		return b.Bytes()
	}
	nl := bytes.IndexByte(good, '\n') + 1
	post := filler(3 << 20)
	for pre := 3 << 20; pre < 4<<20; pre += 4099 {
		out := append(append(append(append([]byte(nil), good[:nl]...), filler(pre)...), good[nl:]...), post...)
		key := []byte(`"event_type":"sample.complete","timestamp_ns":`)
		at := int64(bytes.Index(out, key) + len(key))
		size := int64(len(out))
		const edge, window, windows = 1 << 20, 64 << 10, 64
		covered := at < edge+32 || at >= size-edge-32
		for i := int64(0); i < windows && !covered; i++ {
			lo := edge + i*(size-2*edge)/windows
			covered = at >= lo-32 && at < lo+window+32
		}
		if !covered {
			return out
		}
	}
	t.Fatal("no padding puts the edit outside the old fingerprint")
	return nil
}

// TestCacheIdenticalLogsDifferentConfigs reproduces the second half of
// issue 17 item 10: two runs with byte-identical logs (and mtimes) but
// different sidecars (dataset size, load pattern, sample index). Each
// cached load must carry its own run's facts and dataset indices, equal
// to an uncached Load of that run.
func TestCacheIdenticalLogsDifferentConfigs(t *testing.T) {
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := t.TempDir()
	a := copyGoodRun(t, filepath.Join(base, "a"), nil, mtime)
	b := copyGoodRun(t, filepath.Join(base, "b"), nil, mtime)
	// b: another dataset size, load pattern and index map, same length.
	rewrite := func(path, from, to string) {
		t.Helper()
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := strings.Replace(string(raw), from, to, 1)
		if out == string(raw) {
			t.Fatalf("%s: %q not found", path, from)
		}
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(path, mtime, mtime)
	}
	rewrite(filepath.Join(b.Dir, "run_meta.json"), `"dataset_size": 8`, `"dataset_size": 6`)
	rewrite(filepath.Join(b.Dir, "config.yaml"), "type: concurrency", "type: poisson\n    target_qps: 5")
	rewrite(filepath.Join(b.Dir, "sample_idx_map.json"), `"000000000000000000000000a11ce000": 0`, `"000000000000000000000000a11ce000": 5`)
	c := &Cache{Dir: filepath.Join(base, "cache")}
	for _, sample := range []int{0, 2} {
		opts := contract.IngestOptions{Counter: tokenizer.Words{}, TokenizeSample: sample}
		for round := 0; round < 2; round++ {
			for _, dir := range []string{a.Dir, b.Dir} {
				run, err := ResolveRun(context.Background(), dir)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Load(context.Background(), run, opts)
				if err != nil {
					t.Fatal(err)
				}
				run, _ = ResolveRun(context.Background(), dir)
				got, hit, err := c.Load(context.Background(), run, opts)
				if err != nil {
					t.Fatal(err)
				}
				if hit != (round == 1) {
					t.Errorf("%s sample=%d round %d: hit %v", dir, sample, round, hit)
				}
				if !reflect.DeepEqual(got.Info, want.Info) || !reflect.DeepEqual(got.DatasetIndex, want.DatasetIndex) ||
					!reflect.DeepEqual(got.Samples, want.Samples) {
					t.Errorf("%s sample=%d round %d: cached load differs from its own run:\ninfo %+v\nwant %+v\nindex %v\nwant  %v",
						dir, sample, round, got.Info, want.Info, got.DatasetIndex, want.DatasetIndex)
				}
			}
		}
	}
	ra, _ := ResolveRun(context.Background(), a.Dir)
	rb, _ := ResolveRun(context.Background(), b.Dir)
	if ra.Info.DatasetSize != 8 || rb.Info.DatasetSize != 6 || rb.Info.LoadPattern != "poisson" {
		t.Fatalf("fixture: dataset sizes %d/%d, pattern %q", ra.Info.DatasetSize, rb.Info.DatasetSize, rb.Info.LoadPattern)
	}
}

// TestCacheEventsDigest: the digest recorded while decoding for a load
// that asks for it (HashEvents: a sweep's rows) is the SHA-256 of the
// file as stored, served without reading the file, and forgotten once the
// file changes. A fill that did not ask (an analyze) records none (its
// entry is named by the cheaper content key); a later hit that asks reads
// the file for it once and records it.
func TestCacheEventsDigest(t *testing.T) {
	base := t.TempDir()
	run := copyGoodRun(t, filepath.Join(base, "r"), nil, time.Unix(1_700_000_000, 0))
	c := &Cache{Dir: filepath.Join(base, "cache")}
	if _, ok := c.EventsDigest(run.EventsPath); ok {
		t.Fatal("digest before any load")
	}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	if l, hit, err := c.Load(context.Background(), run, opts); err != nil || hit || l.EventsSHA256 != "" {
		t.Fatalf("analyze's fill: hit %v, digest %q, %v", hit, l.EventsSHA256, err)
	}
	if _, ok := c.EventsDigest(run.EventsPath); ok {
		t.Fatal("a SHA-256 recorded by a fill that computed none")
	}
	raw, _ := os.ReadFile(run.EventsPath)
	want := sha256Hex(raw)
	opts.HashEvents = true
	l, hit, err := c.Load(context.Background(), run, opts)
	if err != nil || !hit {
		t.Fatalf("sweep's load: hit %v, %v", hit, err)
	}
	got, ok := c.EventsDigest(run.EventsPath)
	if !ok || got != want || l.EventsSHA256 != want {
		t.Fatalf("digest %q/%q (ok %v), want %q", got, l.EventsSHA256, ok, want)
	}
	// A fresh fill that asks records it while decoding.
	if err := os.RemoveAll(c.Dir); err != nil {
		t.Fatal(err)
	}
	if l, hit, err = c.Load(context.Background(), run, opts); err != nil || hit || l.EventsSHA256 != want {
		t.Fatalf("sweep's fill: hit %v, digest %q, %v", hit, l.EventsSHA256, err)
	}
	if got, ok = c.EventsDigest(run.EventsPath); !ok || got != want {
		t.Fatalf("digest after the sweep's fill %q (ok %v), want %q", got, ok, want)
	}
	if err := os.WriteFile(run.EventsPath, raw, 0o644); err != nil { // same bytes, new ctime
		t.Fatal(err)
	}
	if _, ok := c.EventsDigest(run.EventsPath); ok {
		t.Fatal("digest served for a rewritten file")
	}
}

// TestCacheContentKeyNamesPrivateEntries: in a private cache a fill that
// computes no SHA-256 (an analyze) names its entry by the events file's
// XXH3-128 (zeebo/xxh3 over the raw bytes, read here) and records it in
// the identity file, alone; the next load is a hit, with the latency read
// from the raw lines. (An edited log is a miss: TestCacheInPlaceEditIsNotAHit.)
func TestCacheContentKeyNamesPrivateEntries(t *testing.T) {
	base := t.TempDir()
	mtime := time.Unix(1_700_000_000, 0)
	run := copyGoodRun(t, filepath.Join(base, "r"), nil, mtime)
	c := &Cache{Dir: filepath.Join(base, "cache")}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	if _, hit, err := c.Load(context.Background(), run, opts); err != nil || hit {
		t.Fatalf("fill: hit %v, %v", hit, err)
	}
	raw, _ := os.ReadFile(run.EventsPath)
	sum := xxh3.Hash128(raw).Bytes()
	want := hex.EncodeToString(sum[:])
	ids, _ := filepath.Glob(filepath.Join(c.Dir, "ids", "*"))
	if len(ids) != 1 {
		t.Fatalf("identity files %v, want one", ids)
	}
	if b, _ := os.ReadFile(ids[0]); string(b) != want+"\n" {
		t.Errorf("identity file %q, want the XXH3-128 %s alone", b, want)
	}
	if m, _ := filepath.Glob(filepath.Join(c.Dir, "*-"+want+"-*.cols")); len(m) != 1 {
		t.Errorf("entries named by the content key: %v, want one", m)
	}
	uuid, latency := firstCompleteLatency(t, raw)
	l, hit, err := c.Load(context.Background(), run, opts)
	if err != nil || !hit || latencyOf(t, l, uuid) != latency {
		t.Fatalf("second load: hit %v, latency %d (want %d), %v", hit, latencyOf(t, l, uuid), latency, err)
	}
}

// missThenHit loads run from c twice: a miss that decodes and stores, then
// a hit; both must give uuid the latency want. stage prefixes the
// messages.
func missThenHit(t *testing.T, c *Cache, run *contract.Run, opts contract.IngestOptions, uuid string, want int64, stage string) {
	t.Helper()
	for i, wantHit := range []bool{false, true} {
		l, hit, err := c.Load(context.Background(), run, opts)
		if err != nil || hit != wantHit {
			t.Fatalf("%sload %d: hit %v (want %v), %v", stage, i, hit, wantHit, err)
		}
		if got := latencyOf(t, l, uuid); got != want {
			t.Fatalf("%sload %d: latency %d, want %d", stage, i, got, want)
		}
	}
}
