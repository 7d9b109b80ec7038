package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEmptyLogNamed: an empty log, with or without --tokenizer words, as
// a zero-byte file, blank lines or a gzip stream of nothing, fails with
// the file named and "the log is empty", not with what could not be
// resolved for its content (issue 26: `could not resolve a tokenizer for
// model ""`, `could not resolve dataset/super-pass size`).
func TestEmptyLogNamed(t *testing.T) {
	gz := func() []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte("\n\n"))
		w.Close()
		return b.Bytes()
	}()
	for _, tc := range []struct {
		name, file string
		data       []byte
	}{
		{"zero bytes", "events.jsonl", nil},
		{"blank lines", "events.jsonl", []byte("\n \n\n")},
		{"gzip of blank lines", "events.jsonl.gz", gz},
	} {
		for _, tok := range [][]string{nil, {"--tokenizer", "words"}} {
			t.Run(tc.name+strings.Join(tok, " "), func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, tc.file)
				if err := os.WriteFile(path, tc.data, 0o644); err != nil {
					t.Fatal(err)
				}
				_, msg, code := runCLI(t, append([]string{"analyze", dir, "--no-cache"}, tok...)...)
				if code != exitFailure || !strings.Contains(msg, path+": the log is empty (no events)") ||
					strings.Contains(msg, "could not resolve") {
					t.Errorf("exit %d, stderr %q; want exit %d naming %s as empty", code, msg, exitFailure, path)
				}
			})
		}
	}
}
