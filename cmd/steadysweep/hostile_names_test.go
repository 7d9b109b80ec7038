package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The run directory names of issue 30's "names are data": invalid UTF-8,
// a C0 control, a newline and a carriage return. Their escaped spellings
// are Go's (sinks.OneLine), written out here by hand.
const (
	hostileGoodName    = "bad\xff\x01name\nline2"
	hostileGoodEscaped = `bad\xff\x01name\nline2`
	hostileBadName     = "broken\xfe\rname"
	hostileBadEscaped  = `broken\xfe\rname`
)

// TestHostileRunNames is issue 30's "a run directory named with invalid
// UTF-8 makes the whole rows part file unreadable by DuckDB and Polars"
// and "a newline in a run directory's name splits analyze's one-line
// error and the sweep's failure list": an archive of a good run and a
// failing one (its events file not gzip), both with hostile names, is
// swept with the sweep page and run pages, and the failing run analysed.
// Every string the rows hold is valid UTF-8 and names the runs escaped;
// DuckDB reads the part file (when node and @duckdb/node-api are
// installed: see notebook_test.go); every page is valid UTF-8; stderr is
// valid UTF-8, the failure list a line per run and analyze's error one
// line naming the run escaped.
func TestHostileRunNames(t *testing.T) {
	arch := t.TempDir()
	good := filepath.Join(arch, hostileGoodName)
	if err := os.Mkdir(good, 0o755); err != nil {
		t.Skipf("this filesystem refuses the name: %v", err)
	}
	copyRunTo(t, filepath.Join(repoRoot(t), "testdata", "goodrun"), good)
	bad := filepath.Join(arch, hostileBadName)
	if err := os.Mkdir(bad, 0o755); err != nil {
		t.Skipf("this filesystem refuses the name: %v", err)
	}
	if err := os.WriteFile(filepath.Join(bad, "events.jsonl.gz"), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"sweep", arch, "-o", out, "--tokenizer", "words", "--no-cache",
		"--html=" + filepath.Join(out, "index.html"), "--run-pages"}, &stdout, &stderr)
	code := exitCode(err, &stderr)
	if code != exitPartial {
		t.Fatalf("sweep exit %d, want %d (one run fails): %s", code, exitPartial, stderr.String())
	}

	rows := readParquetRecords(t, partFiles(t, out, "rows")...)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want one per run", len(rows))
	}
	names := map[string]bool{}
	for _, r := range rows {
		for col, v := range r {
			if s, ok := v.(string); ok && !utf8.ValidString(s) {
				t.Errorf("column %s holds invalid UTF-8 %q", col, s)
			}
		}
		names[r["run_rel"].(string)] = true
	}
	if !names[hostileGoodEscaped] || !names[hostileBadEscaped] {
		t.Errorf("run_rel values %v, want the names escaped (%q, %q)", names, hostileGoodEscaped, hostileBadEscaped)
	}
	t.Run("duckdb", func(t *testing.T) {
		n := nodeWith(t, "@duckdb/node-api")
		got, err := n.run(duckdbScript, "SELECT run_rel, status FROM read_parquet('"+filepath.Join(out, "rows", "*.parquet")+"') ORDER BY run_rel")
		if err != nil {
			t.Fatalf("DuckDB cannot read the rows: %v", err)
		}
		cells := decodeJSONRows(t, got)
		if len(cells) != 2 || cells[0]["run_rel"] != hostileGoodEscaped || cells[1]["run_rel"] != hostileBadEscaped {
			t.Errorf("DuckDB reads %v", cells)
		}
	})

	pages := 0
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".html") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if !utf8.Valid(b) {
			t.Errorf("%s is not valid UTF-8", p)
		}
		return nil
	})
	if pages < 2 {
		t.Errorf("%d pages written, want the sweep page and run pages", pages)
	}
	page, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !bytes.Contains(page, []byte(hostileGoodEscaped)) {
		t.Errorf("the sweep page does not name %s escaped", hostileGoodEscaped)
	}

	checkLines := func(what, text string) {
		t.Helper()
		if !utf8.ValidString(text) || strings.ContainsAny(text, "\r\x01") {
			t.Errorf("%s holds invalid UTF-8 or raw control bytes: %q", what, text)
		}
		for _, l := range strings.Split(text, "\n") {
			if strings.HasPrefix(l, "line2") || strings.HasPrefix(l, "name") {
				t.Errorf("%s: a name was split over lines: %q", what, text)
			}
		}
	}
	checkLines("sweep stderr", stderr.String())
	if !strings.Contains(stderr.String(), "\n  "+hostileBadEscaped+": ") {
		t.Errorf("the failure list does not name %s on its line: %q", hostileBadEscaped, stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	err = run(context.Background(), []string{"analyze", bad, "--tokenizer", "words", "--no-cache"}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code == exitOK {
		t.Fatalf("analyze of the failing run: exit 0")
	}
	checkLines("analyze stderr", stderr.String())
	last := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if l := last[len(last)-1]; !strings.HasPrefix(l, "steadysweep: ") {
		t.Errorf("analyze's error is not one line: %q", stderr.String())
	}
	if !strings.Contains(stderr.String(), hostileBadEscaped) {
		t.Errorf("analyze's messages do not name %s: %q", hostileBadEscaped, stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	if err := run(context.Background(), []string{"analyze", good, "--tokenizer", "words", "--no-cache"}, &stdout, &stderr); err != nil {
		t.Fatalf("analyze of the good run: %v", err)
	}
	checkLines("analyze report", stdout.String())
	if !strings.Contains(stdout.String(), "steadysweep analyze · "+hostileGoodEscaped) {
		t.Errorf("the report's title does not name the run escaped: %.300q", stdout.String())
	}
}
