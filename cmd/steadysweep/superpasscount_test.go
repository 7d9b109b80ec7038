package main

import (
	"fmt"
	"html"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSuperPassCountRealData: every real log of ../shared/realdata gives
// one super-pass count in the text report, the --json result and the run
// page, the count its raw file implies. The requests are counted from the
// raw file (realLogs' readers, encoding/json and encoding/csv alone); at
// the super-pass size S the result states, N requests fill ⌈N/S⌉
// super-passes, the last holding N − (⌈N/S⌉−1)·S: the AIPerf burst's 100
// requests are 2 super-passes of 64, the last partial (36) and left out
// of the analysis, which the text used to call "1 super-pass of 64
// samples" while its JSON total and page said 2; GuideLLM's 30 requests
// are one partial super-pass, not "1 super-pass of 64 samples".
func TestSuperPassCountRealData(t *testing.T) {
	space := regexp.MustCompile(`\s+`)
	forRealLogs(t, func(t *testing.T, _ realLog, dir string, facts realFacts) {
		n := facts.requests
		tmp := t.TempDir()
		jsonPath, page := filepath.Join(tmp, "result.json"), filepath.Join(tmp, "run.html")
		stdout, _ := mustRun(t, "analyze", dir, "--json", jsonPath, "--html", page)
		j := jsonObject(t, jsonPath)
		sf, _ := number(get(j, "superpass_size"))
		s := int(sf)
		if s < 1 {
			t.Fatalf("super-pass size %v", get(j, "superpass_size"))
		}
		nSP := (n + s - 1) / s
		last := n - (nSP-1)*s
		analysed := nSP
		var want string
		switch {
		case last == s:
			want = fmt.Sprintf("%d super-pass", nSP)
			if nSP != 1 {
				want += "es"
			}
			want += fmt.Sprintf(" of %d samples", s)
		case nSP == 1:
			want = fmt.Sprintf("1 partial super-pass (%d of %d samples)", last, s)
		default:
			want = fmt.Sprintf("%d super-passes of %d samples, the last partial (%d samples, not analysed)", nSP, s, last)
			analysed = nSP - 1 // the full ones
		}
		// JSON: the whole run's count and samples, and the analysed series.
		for key, v := range map[string]int{"total.n_super_passes": nSP, "total.n_samples": n, "n_super_passes": analysed} {
			if got, _ := number(get(j, key)); int(got) != v {
				t.Errorf("JSON %s = %v, want %d (%d requests in the file, super-passes of %d)", key, get(j, key), v, n, s)
			}
		}
		// Text: the profile line (wrapped lines joined; a line breaks at a
		// " · ", which the break replaces).
		text := space.ReplaceAllString(stdout, " ")
		if !strings.Contains(text, " · "+want+" · warmup ") && !strings.Contains(text, " · "+want+" warmup ") {
			t.Errorf("the text report does not say %q:\n%s", want, firstLines(stdout, 4))
		}
		// Page: the shape line and the steady-vs-total table's count.
		dom := string(mustRead(t, page))
		shape := regexp.MustCompile(`<dt>shape</dt><dd>([^<]*)</dd>`).FindStringSubmatch(dom)
		if shape == nil || !strings.HasPrefix(html.UnescapeString(shape[1]), want+" · warmup ") {
			t.Errorf("the run page's shape %q, want %q", shape, want)
		}
		row := regexp.MustCompile(`<tr><td>super-passes</td><td[^>]*>.*?</td><td class="num">(\d+)</td></tr>`).FindStringSubmatch(dom)
		if row == nil || row[1] != fmt.Sprint(nSP) {
			t.Errorf("the run page's total super-passes %q, want %d", row, nSP)
		}
	})
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}
