package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
)

// pageRuns are the shared parity runs the page tests draw, one per shape
// the pages must show (shared/parity/README.md): a clean plateau, a late
// staircase, a drift, an offline burst, failures; plus a non-streaming copy
// of the clean run (sharedtest.NonStreamingCopy).
func pageRuns(t *testing.T) []string {
	t.Helper()
	runs := filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs")
	var dirs []string
	for _, name := range []string{"conc_clean_ramp", "conc_staircase_late", "conc_drift_up", "offline_burst", "conc_failures"} {
		dirs = append(dirs, filepath.Join(runs, name))
	}
	return append(dirs, sharedtest.NonStreamingCopy(t, "conc_clean_ramp"))
}

// pageRecord returns the "result" (or the whole record) of the page at
// path, re-encoded as pyjson writes it.
func pageRecord(t *testing.T, path string) pyjson.Object {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := htmlpage.Record(page)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	v, err := pyjson.Parse(raw)
	if err != nil {
		t.Fatalf("%s: record: %v", path, err)
	}
	return v.(pyjson.Object)
}

func recordField(o pyjson.Object, key string) any {
	if i := o.Index(key); i >= 0 {
		return o[i].Value
	}
	return nil
}

var hrefSrc = regexp.MustCompile(`(?i)\s(?:src|href)="([^"]*)"`)

// checkLinks: the page's Content-Security-Policy refuses every load by
// default, no src or href of it leaves the file system (no scheme, no
// //host, no absolute path), and every relative one names a file.
func checkLinks(t *testing.T, path string) {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(`http-equiv="Content-Security-Policy" content="default-src 'none';`)) {
		t.Errorf("%s: no Content-Security-Policy refusing every load by default", filepath.Base(path))
	}
	for _, m := range hrefSrc.FindAllSubmatch(page, -1) {
		v := string(m[1])
		if strings.HasPrefix(v, "#") {
			continue
		}
		if strings.Contains(v, ":") || strings.HasPrefix(v, "/") {
			t.Errorf("%s: external URL %q", filepath.Base(path), v)
			continue
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), filepath.FromSlash(v))); err != nil {
			t.Errorf("%s: link %q: %v", filepath.Base(path), v, err)
		}
	}
}

// TestAnalyzeHTML: analyze --html writes a page whose record's result is
// byte for byte the --json of the same analysis, for every page run.
func TestAnalyzeHTML(t *testing.T) {
	for _, dir := range pageRuns(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			tmp := t.TempDir()
			jsonPath, htmlPath := filepath.Join(tmp, "r.json"), filepath.Join(tmp, "r.html")
			_, stderr := mustAnalyze(t, dir, "--json", jsonPath, "--html", htmlPath)
			want, err := os.ReadFile(jsonPath)
			if err != nil {
				t.Fatal(err)
			}
			if got := pyjson.Marshal(recordField(pageRecord(t, htmlPath), "result")); !bytes.Equal(got, want) {
				t.Errorf("the page's result is not the --json output (%d vs %d bytes)", len(got), len(want))
			}
			if !strings.Contains(stderr, "wrote "+htmlPath) {
				t.Errorf("stderr does not say the page was written: %q", stderr)
			}
			checkLinks(t, htmlPath)
			checkMode(t, htmlPath)
		})
	}
}

// TestSweepHTML: sweep --run-pages --html writes a sweep page with every
// row of OUT/rows once (each run under each config), its record's rows
// equal to the Parquet rows, a link to each row's run page, run pages
// whose result is analyze --json's for that run and config, and no link
// leaving the disk; report OUT -o FILE writes the same page again.
func TestSweepHTML(t *testing.T) {
	dirs := pageRuns(t)
	out := filepath.Join(t.TempDir(), "out")
	sweepPage := filepath.Join(out, "sweep.html")
	args := append([]string{"sweep"}, dirs...)
	args = append(args, "-o", out, "--preset", "default,reference", "--tokenizer", "words", "--no-cache", "-q",
		"--run-pages", "--html", sweepPage)
	mustRun(t, args...)
	rows := rowCells(t, filepath.Join(out, "rows"))
	if len(rows.Rows) != 2*len(dirs) {
		t.Fatalf("%d rows, want %d runs × 2 configs", len(rows.Rows), len(dirs))
	}
	page, err := os.ReadFile(sweepPage)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]int{}
	for _, m := range regexp.MustCompile(`<tr data-key="([^"]+)"`).FindAllSubmatch(page, -1) {
		keys[string(m[1])]++
	}
	runs := map[string]bool{}
	for _, r := range rows.Rows {
		k := r["run_id"].(string) + "|" + r["config_id"].(string)
		if keys[k] != 1 {
			t.Errorf("row %s (%s) appears %d times on the page", k, r["run_rel"], keys[k])
		}
		runs[r["run_id"].(string)] = true
	}
	if len(keys) != len(rows.Rows) || len(runs) != len(dirs) {
		t.Errorf("page rows %d, Parquet rows %d, runs %d of %d", len(keys), len(rows.Rows), len(runs), len(dirs))
	}
	rec := pageRecord(t, sweepPage)
	recRows, _ := recordField(rec, "rows").([]any)
	if len(recRows) != len(rows.Rows) {
		t.Fatalf("the record has %d rows, the Parquet %d", len(recRows), len(rows.Rows))
	}
	for i, rr := range recRows {
		o := rr.(pyjson.Object)
		for _, c := range []string{"run_id", "config_id", "status", "verdict", "steady_tpot_p50_ns", "window_start_sp"} {
			want := pyjson.Marshal(rows.Rows[i][c])
			if v, ok := rows.Rows[i][c].(int64); ok {
				want = pyjson.Marshal(int(v))
			}
			if got := pyjson.Marshal(recordField(o, c)); !bytes.Equal(got, want) {
				t.Errorf("row %d %s: record %s, Parquet %s", i, c, got, want)
			}
		}
	}
	checkLinks(t, sweepPage)
	checkMode(t, sweepPage)
	links := regexp.MustCompile(`<a href="(pages/[^"]+\.html)">`).FindAllSubmatch(page, -1)
	if len(links) != len(rows.Rows) {
		t.Errorf("%d run-page links for %d rows", len(links), len(rows.Rows))
	}

	// One run page against analyze --json of the same run and config.
	staircase := dirs[1]
	var runID, cfg string
	for _, r := range rows.Rows {
		if r["run_path"] == staircase && r["compat"] == "steadysweep" {
			runID, cfg = r["run_id"].(string), r["config_id"].(string)
		}
	}
	runPage := filepath.Join(htmlpage.RunPagesDir(out), htmlpage.RunPageName(runID, cfg))
	jsonPath := filepath.Join(t.TempDir(), "s.json")
	mustAnalyze(t, staircase, "--json", jsonPath)
	want, _ := os.ReadFile(jsonPath)
	if got := pyjson.Marshal(recordField(pageRecord(t, runPage), "result")); !bytes.Equal(got, want) {
		t.Errorf("the sweep's run page of %s differs from analyze --json", filepath.Base(staircase))
	}
	checkLinks(t, runPage)
	checkMode(t, runPage)
	if !bytes.Contains(mustRead(t, runPage), []byte(`<a href="../sweep.html">`)) {
		t.Error("the run page does not link back to the sweep page")
	}

	again := filepath.Join(out, "again.html")
	mustRun(t, "report", out, "-o", again)
	if !bytes.Equal(mustRead(t, again), page) {
		t.Error("report OUT -o FILE differs from sweep --html FILE over the same output")
	}
	checkMode(t, again)
}

// checkMode: the page at path was written by the atomic writer, a regular
// file of mode 0644 under the umask (no temp file left beside it).
func checkMode(t *testing.T, path string) {
	t.Helper()
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := 0o644 &^ os.FileMode(umask); !fi.Mode().IsRegular() || fi.Mode().Perm() != want {
		t.Errorf("%s: mode %v, want a regular file %v", filepath.Base(path), fi.Mode(), want)
	}
	if tmps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp")); len(tmps) > 0 {
		t.Errorf("temporary files left beside %s: %v", filepath.Base(path), tmps)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cellTable is every row of a rows directory as its cells by column name
// (sinks.RowCells).
type cellTable struct{ Rows []map[string]any }

func rowCells(t *testing.T, dir string) cellTable {
	t.Helper()
	cols := sinks.RowsColumns()
	var out cellTable
	for r, err := range sinks.ReadRows(context.Background(), dir, sinks.ReadOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]any{}
		for i, v := range sinks.RowCells(&r) {
			m[cols[i].Name] = v
		}
		out.Rows = append(out.Rows, m)
	}
	return out
}
