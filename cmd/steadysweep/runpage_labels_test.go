package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRunPageLabelsAndFailures: the run page of the real AIPerf log
// (../shared/realdata/aiperf-gptoss20b-burst100: 100 requests, 11
// cancelled by the client with error.code 499, counted here from the raw
// file) labels a rate by its unit — "requests per second" with the JSON's
// total.requests_per_s in /s, not "requests per" in seconds — and shows
// the failures by kind, "cancelled 11", not n/a (issue 26).
func TestRunPageLabelsAndFailures(t *testing.T) {
	dir := filepath.Join(realDataDir(t), "aiperf-gptoss20b-burst100")
	cancelled := 0
	eachJSONLine(t, filepath.Join(dir, "profile_export.jsonl"), func(rec struct{ Error *struct{ Code int } }) {
		if rec.Error != nil && rec.Error.Code == 499 {
			cancelled++
		}
	})
	if cancelled != 11 {
		t.Fatalf("%d records with error.code 499, the README says 11", cancelled)
	}

	tmp := t.TempDir()
	page, js := filepath.Join(tmp, "run.html"), filepath.Join(tmp, "run.json")
	mustAnalyze(t, dir, "--json", js, "--html", page)
	var res struct {
		Total struct {
			RequestsPerS float64 `json:"requests_per_s"`
		}
	}
	if readJSON(t, js, &res); res.Total.RequestsPerS <= 0 {
		t.Fatalf("--json total.requests_per_s: %v", res.Total.RequestsPerS)
	}
	html := string(mustRead(t, page))
	row := regexp.MustCompile(`<td>requests per[^<]*</td>(?:\s*<td[^>]*>.*?</td>)*`).FindString(html)
	wantTotal := fmt.Sprintf(">%.2f /s<", res.Total.RequestsPerS)
	if !strings.HasPrefix(row, "<td>requests per second</td>") || !strings.Contains(row, wantTotal) {
		t.Errorf("the steady-vs-total row %q: want \"requests per second\" and the total %s", row, wantTotal)
	}
	fails := regexp.MustCompile(`failures</dt><dd[^>]*>([^<]*)<`).FindStringSubmatch(html)
	if fails == nil || !strings.Contains(fails[1], fmt.Sprintf("cancelled %d", cancelled)) || strings.Contains(fails[1], "n/a") {
		t.Errorf("the page's failures %q: want the kinds, cancelled %d", fails, cancelled)
	}
}

// TestRunPageFailuresQuietWhenNone: a run in which nothing failed (the
// reliability corpus's good run: every request completes) shows its
// failures line without the warning tone (issue 26: amber even when 0
// failed).
func TestRunPageFailuresQuietWhenNone(t *testing.T) {
	page := filepath.Join(t.TempDir(), "run.html")
	mustAnalyze(t, filepath.Join(repoRoot(t), "testdata", "goodrun"), "--html", page)
	m := regexp.MustCompile(`failures</dt><dd([^>]*)>([^<]*)<`).FindStringSubmatch(string(mustRead(t, page)))
	if m == nil || !strings.Contains(m[2], "n failed 0") || strings.Contains(m[1], "warn") {
		t.Errorf("failures %q: want n failed 0, not in the warning tone", m)
	}
}
