package sidecar_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// oracleSampleIndex is the encoding/json reading of sample_idx_map.json
// the streaming scanner replaced (commit 5ade8c5): the final map, the
// phases, and the count of entries that are not non-negative integers.
func oracleSampleIndex(b []byte) (m map[string]int64, phases []string, bad int, perfOK bool, err error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, nil, 0, false, err
	}
	for name := range top {
		phases = append(phases, name)
	}
	sort.Strings(phases)
	perf, ok := top["performance"]
	if !ok {
		return nil, phases, 0, true, nil
	}
	dec := json.NewDecoder(bytes.NewReader(perf))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil {
		return nil, phases, 0, false, nil
	}
	m = make(map[string]int64)
	for k, v := range raw {
		n, ok := v.(json.Number)
		var x int64
		var err error
		if ok {
			x, err = n.Int64()
		}
		if !ok || err != nil || x < 0 {
			bad++
			continue
		}
		m[k] = x
	}
	return m, phases, bad, true, nil
}

func checkSampleIndex(t *testing.T, name string, b []byte) {
	t.Helper()
	want, phases, wantBad, perfOK, werr := oracleSampleIndex(b)
	// A one-byte reader exercises every token straddling the window.
	for _, r := range []func() *sidecar.SampleIndex{
		func() *sidecar.SampleIndex {
			si, bad, err := sidecar.ParseSampleIndex(context.Background(), bytes.NewReader(b), int64(len(b)))
			check(t, name, si, bad, err, want, phases, wantBad, perfOK, werr)
			return si
		},
		func() *sidecar.SampleIndex {
			si, bad, err := sidecar.ParseSampleIndex(context.Background(), iotest.OneByteReader(bytes.NewReader(b)), 0)
			check(t, name+"/1byte", si, bad, err, want, phases, wantBad, perfOK, werr)
			return si
		},
	} {
		r()
	}
}

func check(t *testing.T, name string, si *sidecar.SampleIndex, bad int, err error, want map[string]int64, phases []string, wantBad int, perfOK bool, werr error) {
	t.Helper()
	if werr != nil || !perfOK {
		if err == nil {
			t.Fatalf("%s: accepted, encoding/json: %v (performance an object: %v)", name, werr, perfOK)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if bad != wantBad || strings.Join(si.Phases, ",") != strings.Join(phases, ",") || si.Performance != (want != nil) {
		t.Fatalf("%s: bad %d phases %v perf %v, want %d %v %v", name, bad, si.Phases, si.Performance, wantBad, phases, want != nil)
	}
	if si.Len() != len(want) {
		t.Fatalf("%s: %d entries, want %d", name, si.Len(), len(want))
	}
	maxIdx := int64(-1)
	for k, v := range want {
		got, ok := si.Lookup(k)
		if !ok || got != v {
			t.Fatalf("%s: %q → %d %v, want %d", name, k, got, ok, v)
		}
		maxIdx = max(maxIdx, v)
	}
	if si.MaxIndex != maxIdx {
		t.Fatalf("%s: max index %d, want %d", name, si.MaxIndex, maxIdx)
	}
}

// TestSampleIndexMatchesEncodingJSON: the shared runs' maps and edge
// cases read the same as with encoding/json (the reader it replaced).
func TestSampleIndexMatchesEncodingJSON(t *testing.T) {
	u := func(i int) string { return fmt.Sprintf("%032x", i) }
	for i, in := range []string{
		`{"performance": {"` + u(1) + `": 0, "` + u(2) + `": 7}}`,
		`{"performance": {}, "accuracy": {"x": 1}}`,
		`{"accuracy": {"` + u(1) + `": 3}}`,
		`{"performance": {"` + u(1) + `": 1, "` + u(1) + `": 2}}`,
		`{"performance": {"` + u(1) + `": 1, "` + u(1) + `": "x"}}`,
		`{"performance": {"` + u(1) + `": -1, "b": 1.5, "c": 1e2, "d": null, "e": [1], "f": {"g": 2}, "h": 12345678901234567890, "i": 9}}`,
		`{"performance": {"ABCDEF00000000000000000000000000": 4, "caf\u00e9": 5, "a\"b": 6, "\u0061": 7}}`,
		` { "performance" : { "` + u(3) + `" : 3 } } `,
		`{"performance": null}`, `{"performance": 3}`, `{"performance": []}`, `null`, `[]`, `{}`, ``, `{`,
		`{"performance": {"` + u(1) + `": 1}`, `{"performance": {"` + u(1) + `": 1}} x`, `{"performance": {"a" 1}}`,
		`{"performance": {"a": 1,}}`, `{"performance": {"a": 01}}`, `{"performance": {"a": tru}}`,
		`{"performance": {"a": 1}, "performance": {"b": 2}}`, `{"performance": {"a": 1}, "performance": null}`,
		`{"x": [[[[{"y": [1, "2", null, true, {"z": {}}]}]]]], "performance": {"` + u(5) + `": 5}}`,
	} {
		checkSampleIndex(t, fmt.Sprintf("case %d", i), []byte(in))
	}
	shared := sharedtest.Dir(t, "parity/runs")
	files, _ := filepath.Glob(filepath.Join(shared, "parity", "runs", "*", "sample_idx_map.json"))
	if len(files) < 17 {
		t.Fatalf("%d shared maps", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkSampleIndex(t, f, b)
	}
}

// FuzzSampleIndex: any input reads as with encoding/json, or both reject
// it (inputs valid for Python's grammar only — NaN, raw control
// characters, invalid UTF-8 — are skipped).
func FuzzSampleIndex(f *testing.F) {
	f.Add([]byte(`{"performance": {"00000000000000000000000000000001": 0, "b": 7}, "acc": {"c": [1]}}`))
	f.Add([]byte(`{"performance": {"a": 1, "a": -1}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if !isUTF8(b) {
			return // encoding/json would read U+FFFD where the bytes are kept
		}
		if !json.Valid(b) {
			if _, _, err := sidecar.ParseSampleIndex(context.Background(), bytes.NewReader(b), int64(len(b))); err == nil && !strings.ContainsAny(string(b), "NI\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f") {
				t.Fatalf("accepted invalid JSON %q", b)
			}
			return
		}
		checkSampleIndex(t, "fuzz", b)
	})
}

func isUTF8(b []byte) bool { return scan.ValidUTF8(b) }

// writeBigIndex writes a sample_idx_map.json of n entries.
func writeBigIndex(tb testing.TB, n int) string {
	path := filepath.Join(tb.TempDir(), "sample_idx_map.json")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := errors.Join(benchlog.SampleIndex(f, n), f.Close()); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkSampleIndex5M reads a 5 M-entry sample_idx_map.json (issue
// 16: < 1 s and < 300 MB): ns/op is the parse, heap-MB the live heap
// after it (the index itself), alloc-MB everything it allocated.
//
//	go test -run '^$' -bench SampleIndex5M -benchtime 3x ./columnar/
func BenchmarkSampleIndex5M(b *testing.B) {
	path := writeBigIndex(b, 5_000_000)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	var keep *sidecar.SampleIndex
	var ms0, ms1 runtime.MemStats
	var cpu time.Duration
	for b.Loop() {
		keep = nil
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		fi, _ := f.Stat()
		c0 := bench.CPUTime()
		si, _, err := sidecar.ParseSampleIndex(context.Background(), f, fi.Size())
		cpu += bench.CPUTime() - c0
		f.Close()
		if err != nil || si.Len() != 5_000_000 {
			b.Fatalf("%v, %d entries", err, si.Len())
		}
		keep = si
	}
	runtime.GC()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(ms1.HeapAlloc)/1e6, "heap-MB")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/1e6, "alloc-MB")
	runtime.KeepAlive(keep)
}

// TestSampleIndexBackgroundBuild: maps large enough for the index to be
// built while they are parsed read as with encoding/json — with later
// duplicates (last wins, also over values past int32 and non-indices),
// a second "performance" map replacing the first, and stated sizes that
// are right, unknown, or too small (the keys then outgrow their
// reservation and the index is built after the parse).
func TestSampleIndexBackgroundBuild(t *testing.T) {
	const n = 260_000 // ~44-byte entries: a reservation (size/40) over minBackgroundBuild
	u := func(i int) string { return fmt.Sprintf("%032x", i) }
	var b bytes.Buffer
	b.WriteString(`{"performance": {`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		switch {
		case i%997 == 5: // a later duplicate of an earlier uuid
			fmt.Fprintf(&b, "%q: %d", u(i/2), i+1_000_000)
		case i%1009 == 7:
			fmt.Fprintf(&b, "%q: %d", u(i/3), int64(1)<<33+int64(i)) // past int32, replacing
		case i%1013 == 9:
			fmt.Fprintf(&b, "%q: -1", u(i/4)) // a non-index replacing an index
		default:
			fmt.Fprintf(&b, "%q: %d", u(i), i)
		}
	}
	b.WriteString("}}")
	one := b.Bytes()
	two := append(append([]byte(`{"performance": {"`+u(1)+`": 1}, "accuracy": {}, `), one[1:len(one)-1]...), '}')
	for name, in := range map[string][]byte{"one map": one, "replaced map": two} {
		want, phases, wantBad, perfOK, werr := oracleSampleIndex(in)
		for _, size := range []int64{int64(len(in)), 0, int64(len(in)) / 2} {
			si, bad, err := sidecar.ParseSampleIndex(context.Background(), bytes.NewReader(in), size)
			check(t, fmt.Sprintf("%s, stated size %d", name, size), si, bad, err, want, phases, wantBad, perfOK, werr)
		}
	}
}
