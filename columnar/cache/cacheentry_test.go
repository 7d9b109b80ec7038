package cache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
	"github.com/zeebo/xxh3"
)

// plantedLoaded is a Loaded of n samples whose every column is planted
// from the row number (so a value read from the wrong place or row shows),
// with every column the entry treats apart: a re-issued sample
// (last_issue_ns kept), uuids that are not hex (uuid_ext, with nulls),
// conversation ids with turns, failure codes, input and reasoning tokens.
func plantedLoaded(n int) *contract.Loaded {
	l := &contract.Loaded{}
	l.Ext = map[int32]string{}
	s := &l.Samples
	for i := range n {
		v := int64(i)
		s.IssueNs = append(s.IssueNs, 1000*v)
		s.LastIssueNs = append(s.LastIssueNs, 1000*v+int64(i%3))
		s.LastEventNs = append(s.LastEventNs, 1000*v+900)
		s.HasFirstToken = append(s.HasFirstToken, i%5 != 0)
		s.FirstTokenNs = append(s.FirstTokenNs, 1000*v+100)
		s.TTFTNs = append(s.TTFTNs, 100+v)
		s.WarmTTFT = append(s.WarmTTFT, i%2 == 0)
		s.FirstTokenSeq = append(s.FirstTokenSeq, 3*v+1)
		s.HasComplete = append(s.HasComplete, i%7 != 0)
		s.CompleteNs = append(s.CompleteNs, 1000*v+800)
		s.LatencyNs = append(s.LatencyNs, 800+v)
		s.CompleteSeq = append(s.CompleteSeq, 3*v+2)
		s.OutTokens = append(s.OutTokens, v%400-1)
		s.FullTokens = append(s.FullTokens, v%500-1)
		s.Failed = append(s.Failed, i%7 == 0)
		s.Retries = append(s.Retries, int32(i%3))
		s.FailureKind = append(s.FailureKind, core.FailureKind(i%2))
		s.ConversationID = append(s.ConversationID, fmt.Sprintf("conv-%d", i/4))
		s.Turn = append(s.Turn, int32(i%4))
		s.FailCode = append(s.FailCode, int32(500*(i%7/6)))
		s.InTokens = append(s.InTokens, 10+v)
		s.ReasoningTokens = append(s.ReasoningTokens, v%3-1)
		l.TextBytes = append(l.TextBytes, 5*v-1)
		var k [16]byte
		binary.LittleEndian.PutUint64(k[:], uint64(i)*0x9e3779b97f4a7c15)
		l.Keys = append(l.Keys, k)
		if i%11 == 3 {
			l.Ext[int32(i)] = fmt.Sprintf("odd-uuid-%d", i)
		}
	}
	if len(l.Ext) == 0 {
		l.Ext = nil // as the decoder leaves it
	}
	l.Summary.Samples, l.Summary.Lines = n, 3*int64(n)
	l.Info.Model, l.Info.DatasetSize = "planted", 50
	return l
}

// entryBytes is the entry of l as Store writes it.
func entryBytes(t testing.TB, l *contract.Loaded) []byte {
	t.Helper()
	p, err := PlanEntry(l)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	sum, err := p.Write(&buf)
	if err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if got := binary.LittleEndian.Uint64(b[len(b)-8:]); got != sum || sum != xxh3.Hash(b[:len(b)-8]) {
		t.Fatalf("trailer %016x, returned %016x, want the XXH3-64 of the bytes before the trailer", got, sum)
	}
	return b
}

// reseal rewrites b's trailing XXH3-64 to match its (changed) bytes, as a
// buggy or hostile writer would: the checksum passes and the layout
// checks alone must catch the change.
func reseal(b []byte) []byte {
	binary.LittleEndian.PutUint64(b[len(b)-8:], xxh3.Hash(b[:len(b)-8]))
	return b
}

// sameLoaded reports how got differs from want in what an entry stores.
func sameLoaded(got, want *contract.Loaded) string {
	switch {
	case !reflect.DeepEqual(got.Samples, want.Samples):
		return "samples"
	case !reflect.DeepEqual(got.TextBytes, want.TextBytes), !reflect.DeepEqual(got.Keys, want.Keys):
		return "text bytes or keys"
	case !reflect.DeepEqual(got.Ext, want.Ext):
		return fmt.Sprintf("ext uuids %v, want %v", got.Ext, want.Ext)
	case got.Summary.Samples != want.Summary.Samples || got.Summary.Lines != want.Summary.Lines || !reflect.DeepEqual(got.Info, want.Info):
		return "summary or run info"
	}
	return ""
}

// TestEntryPlantedRoundTrip: every column of a planted Loaded reads back
// value for value from its entry bytes.
func TestEntryPlantedRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 13, 1000} {
		want := plantedLoaded(n)
		b := entryBytes(t, want)
		if _, err := checkEntry(b); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		got, err := loadedFromEntry(b, false)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if n == 0 {
			continue // reflect.DeepEqual tells nil from empty slices; the planted ones are nil
		}
		if d := sameLoaded(got, want); d != "" {
			t.Errorf("n=%d: %s differ", n, d)
		}
		// An endpoints run's load leaves the stored RunInfo undecoded.
		skipped, err := loadedFromEntry(b, true)
		if err != nil {
			t.Fatalf("n=%d, run info skipped: %v", n, err)
		}
		if !reflect.DeepEqual(skipped.Info, core.RunInfo{}) || !reflect.DeepEqual(skipped.Samples, want.Samples) {
			t.Errorf("n=%d, run info skipped: info %+v, or the samples differ", n, skipped.Info)
		}
	}
}

// TestEntryCorruptionIsAnError changes an entry's bytes as a torn write,
// a flipped bit or a lying writer would, each case named for what it
// breaks: every one is an error, never a panic or a read outside the
// entry (the checks bound every offset and length by the file's size).
func TestEntryCorruptionIsAnError(t *testing.T) {
	orig := entryBytes(t, plantedLoaded(40))
	le := binary.LittleEndian
	ncols := int(le.Uint32(orig[24:]))
	col := func(b []byte, name string) []byte {
		for i := range ncols {
			rec := b[entryHeaderSize+entryColumnSize*i:][:entryColumnSize]
			if strings.TrimRight(string(rec[:entryNameSize]), "\x00") == name {
				return rec
			}
		}
		t.Fatalf("no column %s", name)
		return nil
	}
	cases := []struct {
		name     string
		spoil    func(b []byte) []byte
		resealed bool // the trailer rewritten to match
	}{
		{"flipped byte", func(b []byte) []byte { b[len(b)/2] ^= 1; return b }, false},
		{"flipped trailer", func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b }, false},
		{"truncated", func(b []byte) []byte { return b[:len(b)/3] }, false},
		{"truncated to the header", func(b []byte) []byte { return b[:entryHeaderSize] }, false},
		{"empty", func([]byte) []byte { return nil }, false},
		{"truncated, resealed", func(b []byte) []byte { return b[:len(b)*2/3] }, true},
		{"header only, resealed", func(b []byte) []byte { return b[:entryHeaderSize+entrySumSize] }, true},
		{"wrong magic", func(b []byte) []byte { copy(b, "ARROW1\x00\x00"); return b }, true},
		{"wrong layout version", func(b []byte) []byte { le.PutUint32(b[8:], entryVersion+1); return b }, true},
		{"wrong schema version", func(b []byte) []byte { le.PutUint32(b[12:], contract.SchemaVersion-1); return b }, true},
		{"rows one more", func(b []byte) []byte { le.PutUint64(b[16:], le.Uint64(b[16:])+1); return b }, true},
		{"rows one fewer", func(b []byte) []byte { le.PutUint64(b[16:], le.Uint64(b[16:])-1); return b }, true},
		{"rows huge", func(b []byte) []byte { le.PutUint64(b[16:], 1<<62); return b }, true},
		{"columns huge", func(b []byte) []byte { le.PutUint32(b[24:], 1<<31); return b }, true},
		{"columns one fewer", func(b []byte) []byte { le.PutUint32(b[24:], le.Uint32(b[24:])-1); return b }, true},
		{"summary past the end", func(b []byte) []byte { le.PutUint64(b[32:], uint64(len(b))); return b }, true},
		{"summary length huge", func(b []byte) []byte { le.PutUint64(b[40:], 1<<63); return b }, true},
		{"summary inside the header", func(b []byte) []byte { le.PutUint64(b[32:], 8); return b }, true},
		{"run info wraps around", func(b []byte) []byte { le.PutUint64(b[48:], ^uint64(0)-4); return b }, true},
		{"column offset misaligned", func(b []byte) []byte { r := col(b, "issue_ns"); le.PutUint64(r[32:], le.Uint64(r[32:])+4); return b }, true},
		{"column offset past the end", func(b []byte) []byte { r := col(b, "latency_ns"); le.PutUint64(r[32:], uint64(len(b))&^7); return b }, true},
		{"column offset huge", func(b []byte) []byte { r := col(b, "retries"); le.PutUint64(r[32:], 1<<63); return b }, true},
		{"column offset wraps around", func(b []byte) []byte { r := col(b, "ttft_ns"); le.PutUint64(r[32:], ^uint64(7)); return b }, true},
		{"column length short", func(b []byte) []byte { r := col(b, "complete_ns"); le.PutUint64(r[40:], le.Uint64(r[40:])-8); return b }, true},
		{"column length huge", func(b []byte) []byte { r := col(b, "uuid16"); le.PutUint64(r[40:], 1<<62); return b }, true},
		{"column type unknown", func(b []byte) []byte { r := col(b, "failed"); le.PutUint32(r[24:], 9); return b }, true},
		{"column type swapped", func(b []byte) []byte { r := col(b, "turn"); le.PutUint32(r[24:], entryUint8); return b }, true},
		{"column renamed twice", func(b []byte) []byte { r := col(b, "full_tokens"); copy(r, "output_tokens\x00\x00"); return b }, true},
		{"column unknown", func(b []byte) []byte { r := col(b, "warm_ttft"); copy(r, "cold_ttft"); return b }, true},
		{"required column missing", func(b []byte) []byte { r := col(b, "has_complete"); copy(r, "input_tokens\x00"); return b }, true},
		{"validity past the end", func(b []byte) []byte { r := col(b, entryUUIDExt); le.PutUint64(r[48:], uint64(len(b))); return b }, true},
		{"validity on a fixed column", func(b []byte) []byte { r := col(b, "issue_ns"); copy(r[48:], col(b, entryUUIDExt)[48:56]); return b }, true},
		{"utf8 data past the end", func(b []byte) []byte { r := col(b, entryConv); le.PutUint64(r[64:], uint64(len(b))); return b }, true},
		{"utf8 offsets backwards", func(b []byte) []byte {
			r := col(b, entryConv)
			le.PutUint64(b[le.Uint64(r[32:])+8*5:], 1)
			return b
		}, true},
		{"utf8 offset past its data", func(b []byte) []byte {
			r := col(b, entryUUIDExt)
			le.PutUint64(b[le.Uint64(r[32:])+8*40:], le.Uint64(r[64:])+1)
			return b
		}, true},
		{"utf8 first offset not 0", func(b []byte) []byte {
			r := col(b, entryConv)
			le.PutUint64(b[le.Uint64(r[32:]):], 1)
			return b
		}, true},
		{"bool not 0 or 1", func(b []byte) []byte { r := col(b, "has_first_token"); b[le.Uint64(r[32:])+7] = 2; return b }, true},
		{"failure kind unknown", func(b []byte) []byte { r := col(b, entryKind); b[le.Uint64(r[32:])+3] = 250; return b }, true},
		{"validity not 0 or 1", func(b []byte) []byte { r := col(b, entryUUIDExt); b[le.Uint64(r[48:])] = 7; return b }, true},
		{"summary damaged", func(b []byte) []byte { b[le.Uint64(b[32:])] = '!'; return b }, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.spoil(bytes.Clone(orig))
			if tc.resealed && len(b) >= entrySumSize {
				reseal(b)
			}
			l, err := entryOf(b, fmt.Sprintf("k-s-%016x%s", xxh3.Hash(b[:max(len(b)-8, 0)]), entrySuffix), false)
			if err == nil || l != nil {
				t.Fatalf("read without an error (%v)", l != nil)
			}
			if tc.resealed && strings.Contains(err.Error(), "checksum") {
				t.Errorf("resealed entry refused for its checksum, not its layout: %v", err)
			}
		})
	}
	// The untouched entry reads, under its own name only.
	sum := xxh3.Hash(orig[:len(orig)-8])
	if _, err := entryOf(bytes.Clone(orig), fmt.Sprintf("k-s-%016x%s", sum, entrySuffix), false); err != nil {
		t.Fatalf("the untouched entry: %v", err)
	}
	if _, err := entryOf(bytes.Clone(orig), fmt.Sprintf("k-s-%016x%s", sum^1, entrySuffix), false); err == nil {
		t.Fatal("an entry read under another entry's name")
	}
}

// TestEntryEveryHeaderByte sets each byte of the header and column table
// in turn to values that break its field (resealed), and cuts the entry
// at every length (resealed): no panic, and whatever reads without an
// error is a valid entry (a reserved byte or a name's padding changed).
func TestEntryEveryHeaderByte(t *testing.T) {
	orig := entryBytes(t, plantedLoaded(24))
	tableEnd := entryHeaderSize + entryColumnSize*int(binary.LittleEndian.Uint32(orig[24:]))
	for i := range tableEnd {
		for _, v := range []byte{0, 1, 0x7f, 0x80, 0xff, orig[i] + 1, orig[i] - 1, orig[i] ^ 8} {
			b := bytes.Clone(orig)
			b[i] = v
			loadedFromEntry(reseal(b), false)
		}
	}
	for n := entrySumSize; n < len(orig); n++ {
		loadedFromEntry(reseal(bytes.Clone(orig[:n])), false)
	}
}

// FuzzEntry: any bytes, resealed so the checksum passes, read as an entry
// without a panic.
func FuzzEntry(f *testing.F) {
	f.Add(entryBytes(f, plantedLoaded(3)))
	f.Add(entryBytes(f, plantedLoaded(0)))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= entrySumSize {
			loadedFromEntry(reseal(b), false)
		}
	})
}

// TestEntryMappedInPlace writes a planted entry above mapMinSize as Store
// names it and reads it twice, mapped and read: both give the planted
// columns; the mapped read's columns lie in the mapping (no copy), and an
// invalid mapped entry is unmapped (the budget given back).
func TestEntryMappedInPlace(t *testing.T) {
	want := plantedLoaded(40000)
	b := entryBytes(t, want)
	if len(b) < mapMinSize {
		t.Fatalf("planted entry of %d bytes, below mapMinSize %d", len(b), mapMinSize)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, fmt.Sprintf("k-s-%016x%s", xxh3.Hash(b[:len(b)-8]), entrySuffix))
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, unmap := mapEntry(f, int64(len(b)))
	if m == nil {
		t.Skip("entries are not mapped on this platform")
	}
	unmap()
	count := mappedEntries
	before := count()
	got, err := ReadEntry(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameLoaded(got, want); d != "" {
		t.Errorf("mapped: %s differ", d)
	}
	if count() != before+1 {
		t.Errorf("mappings %d, want %d: the entry was not mapped", count(), before+1)
	}
	read, err := loadedFromEntry(b, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameLoaded(read, want); d != "" {
		t.Errorf("read: %s differ", d)
	}
	// In place: the latency column starts inside b, not in a copy.
	start, p := uintptr(unsafe.Pointer(&b[0])), uintptr(unsafe.Pointer(&read.Samples.LatencyNs[0]))
	if p < start || p >= start+uintptr(len(b)) {
		t.Errorf("latency column at %#x, outside the entry's bytes %#x+%d: copied", p, start, len(b))
	}
	// A corrupt mapped entry is unmapped.
	b[len(b)/2] ^= 1
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	before = count()
	if _, err := ReadEntry(path); err == nil {
		t.Fatal("a corrupt entry read")
	}
	if count() != before {
		t.Errorf("mappings %d after a corrupt entry, want %d", count(), before)
	}
}
