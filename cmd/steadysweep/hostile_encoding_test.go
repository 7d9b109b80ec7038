package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/steadysweep/steadysweep/sinks"
)

// encodeBOM returns the UTF-8 text b in encoding enc ("UTF-16LE" or
// "UTF-32BE"), byte-order mark first, as Windows tools write it.
func encodeBOM(t *testing.T, b []byte, enc string) []byte {
	t.Helper()
	runes := append([]rune{'\ufeff'}, []rune(string(b))...)
	var out []byte
	switch enc {
	case "UTF-16LE":
		for _, u := range utf16.Encode(runes) {
			out = binary.LittleEndian.AppendUint16(out, u)
		}
	case "UTF-32BE":
		for _, r := range runes {
			out = binary.BigEndian.AppendUint32(out, uint32(r))
		}
	default:
		t.Fatalf("encoding %s", enc)
	}
	return out
}

// TestUTF16And32LogsRefusedByName: an AIPerf profile_export.jsonl and a
// GuideLLM benchmarks.json re-encoded from the committed fixtures
// (columnar/testdata) into UTF-16LE and UTF-32BE, byte-order mark first.
// analyze said "does not exist" of each and a sweep dropped them without
// a row (issue 30); now analyze's one-line error names the file and the
// encoding, and the sweep gives each run its rows, status error, that
// reason.
func TestUTF16And32LogsRefusedByName(t *testing.T) {
	td := filepath.Join("..", "..", "columnar", "testdata")
	arch := t.TempDir()
	type logCase struct{ dir, file, enc string }
	var cases []logCase
	for _, src := range []struct{ dir, file string }{
		{"aiperf_burst", "profile_export.jsonl"},
		{"guidellm_sync", "benchmarks.json"},
	} {
		utf8, err := os.ReadFile(filepath.Join(td, src.dir, src.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range []string{"UTF-16LE", "UTF-32BE"} {
			c := logCase{filepath.Join(arch, src.dir+"-"+strings.ToLower(enc)), src.file, enc}
			if err := os.MkdirAll(c.dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(c.dir, c.file), encodeBOM(t, utf8, enc), 0o644); err != nil {
				t.Fatal(err)
			}
			cases = append(cases, c)
		}
	}
	want := func(c logCase) string {
		return filepath.Join(c.dir, c.file) + ": " + c.enc + " log (byte-order mark): not read; convert it to UTF-8"
	}
	for _, c := range cases {
		for _, arg := range []string{c.dir, filepath.Join(c.dir, c.file)} {
			_, stderr, code := runCLI(t, "analyze", arg, "--no-cache", "--tokenizer", "words")
			if code == 0 || !strings.Contains(stderr, want(c)) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("analyze %s: exit %d, stderr %q; want one line holding %q", arg, code, stderr, want(c))
			}
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	if stderr, err := sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--no-cache"); err == nil {
		t.Logf("sweep: %s", stderr)
	}
	readSweepRows(t, out) // only published part files in OUT/rows
	files, err := sinks.PartFiles(filepath.Join(out, "rows"))
	if err != nil {
		t.Fatal(err)
	}
	// A run of another tool's log is named by its file: the directory
	// tells the four apart.
	perRun := map[string][]map[string]any{}
	for _, r := range readParquetRecords(t, files...) {
		dir := filepath.Base(filepath.Dir(r["run_path"].(string)))
		perRun[dir] = append(perRun[dir], r)
	}
	for _, c := range cases {
		run := filepath.Base(c.dir)
		if len(perRun[run]) != 1 {
			t.Errorf("sweep: %d rows for %s (%s), want 1", len(perRun[run]), run, c.enc)
		}
		for _, r := range perRun[run] {
			if r["status"] != "error" || !strings.Contains(r["reason"].(string), c.enc+" log (byte-order mark): not read") {
				t.Errorf("sweep row of %s: status %v, reason %q; want error naming %s", run, r["status"], r["reason"], c.enc)
			}
		}
	}
	if len(perRun) != len(cases) {
		t.Errorf("sweep: rows for runs %v, want the %d runs", len(perRun), len(cases))
	}
}
