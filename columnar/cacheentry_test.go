package columnar

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/cache"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// entryRoundTripLog is an endpoints log with what the compact entry
// treats apart: a re-issued sample (last_issue_ns kept), a uuid that is
// not 32 hex digits (uuid_ext), a conversation id with turns, and an
// error event naming an HTTP status (failure_code).
func entryRoundTripLog() string {
	const odd = "not-a-hex-uuid"
	return joinLines(
		lnStart,
		lnIssue1,
		evLine("sample.issued", 1050, u1, ""), // a retry while pending
		evLine("sample.recv_first", 1100, u1, `"turn":1,"data":null`),
		evLine("sample.complete", 1500, u1, `"turn":null,"data":["TextModelOutput",["a"," b c"],null,null]`),
		strings.Replace(evLine("sample.issued", 1600, odd, `"turn":2,"data":null`), `"conversation_id":""`, `"conversation_id":"conv-7"`, 1),
		evLine("sample.recv_first", 1700, odd, ""),
		evLine("sample.complete", 1900, odd, `"turn":null,"data":["TextModelOutput",["x"," y"],null,null]`),
		evLine("sample.issued", 2000, u2, ""),
		evLine("error.generic", 2100, u2, `"turn":null,"data":["ErrorData","http","HTTP 503: Service Unavailable"]`),
		evLine("sample.complete", 2200, u2, `"turn":null,"data":null`),
		lnEnded,
	)
}

// storeEntry writes l as the one entry of a new cache and returns its path.
func storeEntry(t *testing.T, l *contract.Loaded) string {
	t.Helper()
	c := &Cache{Dir: t.TempDir()}
	l.EventsSHA256 = strings.Repeat("ab", 32)
	if err := c.entries().Store("k", l); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(c.Dir, "*.cols"))
	if len(paths) != 1 {
		t.Fatalf("entries: %v", paths)
	}
	return paths[0]
}

// storeAndRead writes l as a cache entry and reads it back.
func storeAndRead(t *testing.T, l *contract.Loaded) *contract.Loaded {
	t.Helper()
	got, err := cache.ReadEntry(storeEntry(t, l))
	if err != nil {
		t.Fatalf("readEntry: %v", err)
	}
	return got
}

// TestCacheEntryRoundTrip stores decoded runs of every reader as entries
// and reads them back: the columns, uuids, text sizes, summary and run
// facts are the decode's own, value for value.
func TestCacheEntryRoundTrip(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, filepath.Join(dir, "odd"), map[string]string{"events.jsonl": entryRoundTripLog()})
	for _, runDir := range []string{filepath.Join(dir, "odd"), smallRun, "testdata/legacy_run", "testdata/aiperf_burst",
		"testdata/guidellm_sync", "testdata/vllm_result"} {
		t.Run(filepath.Base(runDir), func(t *testing.T) {
			run, err := ResolveRun(context.Background(), runDir)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Load(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}})
			if err != nil {
				t.Fatal(err)
			}
			if want.Samples.Len() == 0 {
				t.Fatal("no samples decoded")
			}
			got := storeAndRead(t, want)
			if !reflect.DeepEqual(got.Samples, want.Samples) {
				t.Errorf("samples differ:\n got %+v\nwant %+v", got.Samples, want.Samples)
			}
			for i := range want.Samples.Len() {
				if got.UUID(i) != want.UUID(i) {
					t.Errorf("uuid %d: %q, want %q", i, got.UUID(i), want.UUID(i))
				}
			}
			if !slices.Equal(got.TextBytes, want.TextBytes) || !reflect.DeepEqual(got.Info, want.Info) ||
				got.Summary.Samples != want.Summary.Samples || got.Summary.Lines != want.Summary.Lines {
				t.Errorf("text bytes, run info or summary differ")
			}
		})
	}
	// The constructed log exercises every column the entry treats apart.
	run, _ := ResolveRun(context.Background(), filepath.Join(dir, "odd"))
	l, err := Load(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		t.Fatal(err)
	}
	s := l.Samples
	if s.Len() != 3 || s.LastIssueNs[0] != 1050 || s.IssueNs[0] != 1000 || l.UUID(1) != "not-a-hex-uuid" ||
		len(s.ConversationID) != 3 || s.ConversationID[1] != "conv-7" || len(s.Turn) != 3 || s.Turn[1] != 2 ||
		len(s.FailCode) != 3 || s.FailCode[2] != 503 {
		t.Fatalf("the constructed log decoded otherwise than planned: %+v (uuid 1 %q)", s, l.UUID(1))
	}
}

// TestCacheEntryLayout checks what the entry leaves out: last_issue_ns
// when no sample was re-issued (the loaded columns then share issue_ns),
// uuid_ext without odd uuids, and the optional columns the log does not
// record; and that every other column is there.
func TestCacheEntryLayout(t *testing.T) {
	names := func(l *contract.Loaded) []string {
		p, err := cache.PlanEntry(l)
		if err != nil {
			t.Fatal(err)
		}
		return p.Columns()
	}
	plain := decodeFile(t, filepath.Join(smallRun, "events.jsonl"))
	got := names(&contract.Loaded{Decoded: *plain})
	want := []string{"uuid16", "issue_ns", "last_event_ns", "first_token_ns", "ttft_ns", "first_token_seq",
		"complete_ns", "latency_ns", "complete_seq", "output_tokens", "full_tokens", "output_text_bytes",
		"has_first_token", "warm_ttft", "has_complete", "failed", "failure_kind", "retries"}
	if !slices.Equal(got, want) {
		t.Errorf("small_run entry columns:\n got %v\nwant %v", got, want)
	}
	back := storeAndRead(t, &contract.Loaded{Decoded: *plain})
	if &back.Samples.LastIssueNs[0] != &back.Samples.IssueNs[0] {
		t.Errorf("last_issue_ns left out but not shared with issue_ns")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"events.jsonl": entryRoundTripLog()})
	odd := decodeFile(t, filepath.Join(dir, "events.jsonl"))
	got = names(&contract.Loaded{Decoded: *odd})
	for _, name := range []string{"last_issue_ns", "failure_code", "turn", "conversation_id", "uuid_ext"} {
		if !slices.Contains(got, name) {
			t.Errorf("constructed log's entry lacks %s: %v", name, got)
		}
	}
}

// TestCacheEntryRejectsBadValues stores an entry whose bool column holds
// a byte no Go bool holds and one whose failure kind is none of core's
// (as a corrupted entry with a matching checksum would): readEntry
// refuses each with an error naming the column, and does not panic.
func TestCacheEntryRejectsBadValues(t *testing.T) {
	plain := decodeFile(t, filepath.Join(smallRun, "events.jsonl"))
	for _, tc := range []struct {
		column string
		spoil  func(l *contract.Loaded)
	}{
		{"failed", func(l *contract.Loaded) {
			l.Samples.Failed = slices.Clone(l.Samples.Failed)
			cache.BytesOf(l.Samples.Failed)[3] = 2
		}},
		{"failure_kind", func(l *contract.Loaded) {
			l.Samples.FailureKind = slices.Clone(l.Samples.FailureKind)
			l.Samples.FailureKind[5] = 200
		}},
	} {
		l := &contract.Loaded{Decoded: *plain}
		tc.spoil(l)
		_, err := cache.ReadEntry(storeEntry(t, l))
		if err == nil || !strings.HasPrefix(err.Error(), "column "+tc.column+":") {
			t.Errorf("%s spoilt: readEntry err %v, want one naming the column", tc.column, err)
		}
	}
}

// TestCachePointer: a lookup opens the entry its pointer file names
// before listing the directory, and falls back to the listing when the
// pointer is missing, names a removed entry or holds anything but an
// entry name of its own pair.
func TestCachePointer(t *testing.T) {
	run, err := ResolveRun(context.Background(), smallRun)
	if err != nil {
		t.Fatal(err)
	}
	plain := decodeFile(t, filepath.Join(smallRun, "events.jsonl"))
	tmp := t.TempDir()
	c := &Cache{Dir: filepath.Join(tmp, "cache")}
	victim := filepath.Join(tmp, "victim")
	if err := os.WriteFile(victim, []byte("not an entry"), 0o644); err != nil {
		t.Fatal(err)
	}
	sha := strings.Repeat("cd", 32)
	store := func(first int64) string {
		l := &contract.Loaded{Decoded: *plain, EventsSHA256: sha}
		l.Samples.IssueNs = slices.Clone(l.Samples.IssueNs)
		l.Samples.LastIssueNs = l.Samples.IssueNs
		l.Samples.IssueNs[0] = first
		if err := c.entries().Store("k", l); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(c.Dir, cache.EntryBase("k", sha)+".entry"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(string(b), "\n")
	}
	first := func() int64 {
		t.Helper()
		l := c.entries().Entry("k", sha, run)
		if l == nil {
			t.Fatal("no entry loaded")
		}
		return l.Samples.IssueNs[0]
	}
	// Two valid entries of one pair; the pointer names the one a listing
	// finds second.
	a, b := store(111), store(222)
	want, listed := int64(222), int64(111) // the pointed entry's, the listing's first
	if b < a {
		store(111)
		want, listed = 111, 222
	}
	if got := first(); got != want {
		t.Errorf("with a pointer: first issue %d, want %d (the pointed entry's)", got, want)
	}
	pointer := filepath.Join(c.Dir, cache.EntryBase("k", sha)+".entry")
	for _, bad := range []string{"", "../victim", cache.EntryBase("k", sha) + "-000000000000000.cols", cache.EntryBase("x", sha) + "-0000000000000000.cols",
		cache.EntryBase("k", sha) + "-0000000000000000.cols" /* absent */} {
		if err := os.WriteFile(pointer, []byte(bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := first(); got != listed {
			t.Errorf("pointer %q: first issue %d, want the listing's first, %d", bad, got, listed)
		}
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("a pointer outside the cache reached a file: %v", err)
	}
	os.Remove(pointer)
	if l := c.entries().Entry("k", sha, run); l == nil {
		t.Error("without a pointer: no entry found by the listing")
	}
	if len(run.Warnings) != 0 {
		t.Errorf("warnings: %v", run.Warnings)
	}
}
