package htmlpage_test

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// textNumbers reads the steady and total numbers of the text report's
// throughput and latency tables (sinks.WriteReport), keyed as the page's
// steady-vs-total table labels its rows ("TPOT p90", "TPS system"):
// [steady, CI, total] for a rate, [steady, total] for a latency, each as
// printed.
func textNumbers(t *testing.T, text string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	// A rate's row: steady, the CI when there is one, total; each a
	// number with its unit, "n/a" or an interval.
	rate := regexp.MustCompile(`(?m)^\s+(per-user|system) TPS\s+(.*)$`)
	item := regexp.MustCompile(`\[[^\]]*\]|[^\s\[]+\s+tok/s(?:/user)?|n/a`)
	for _, m := range rate.FindAllStringSubmatch(text, -1) {
		name := map[string]string{"per-user": "TPS per user", "system": "TPS system"}[m[1]]
		var items []string
		for _, it := range item.FindAllString(m[2], -1) {
			if strings.HasSuffix(it, "tok/s") || strings.HasSuffix(it, "/user") {
				it = strings.Fields(it)[0]
			}
			items = append(items, it)
		}
		if len(items) == 3 || len(items) == 2 {
			out[name] = items
		}
	}
	lat := regexp.MustCompile(`(?m)^\s+(TTFT|TPOT|e2e)\s+steady\s+(\S+)\s+(\S+)\s+(\S+)\n\s+total\s+(\S+)\s+(\S+)\s+(\S+)$`)
	for _, m := range lat.FindAllStringSubmatch(text, -1) {
		metric := map[string]string{"TTFT": "TTFT", "TPOT": "TPOT", "e2e": "latency"}[m[1]]
		for i, p := range []string{"p50", "p90", "p99"} {
			out[metric+" "+p] = []string{m[2+i], m[5+i]}
		}
	}
	return out
}

// pageCompare reads the page's steady-vs-total table: label → [steady,
// its second line (the CI), total], as the browser shows the text.
func pageCompare(t *testing.T, page []byte) map[string][]string {
	t.Helper()
	table := regexp.MustCompile(`(?s)<caption>steady vs total</caption>.*?</tbody>`).Find(page)
	if table == nil {
		t.Fatal("no steady-vs-total table on the page")
	}
	tags := regexp.MustCompile(`<[^>]+>`)
	plain := func(s string) string { return strings.TrimSpace(html.UnescapeString(tags.ReplaceAllString(s, ""))) }
	out := map[string][]string{}
	row := regexp.MustCompile(`<tr><td>([^<]*)</td><td class="num strong">(.*?)</td>(?:<td class="num">(.*?)</td>)?</tr>`)
	for _, m := range row.FindAllSubmatch(table, -1) {
		steady, sub, _ := strings.Cut(string(m[2]), "<br>")
		out[plain(string(m[1]))] = []string{plain(steady), plain(sub), plain(string(m[3]))}
	}
	return out
}

// TestRunPageNumbersAreTheTextReports: for every page run, each steady and
// total throughput and latency the text report prints (with its interval)
// is on the page's steady-vs-total table, in the same row, to the same
// digits — the two are one computation, formatted alike.
func TestRunPageNumbersAreTheTextReports(t *testing.T) {
	for _, c := range pageCases() {
		if c.params.Compat == core.CompatReference {
			continue // the reference's text report is reftext's; its page shows the reference tree
		}
		t.Run(c.name, func(t *testing.T) {
			dir := c.dir(t)
			r := analyzeDir(t, dir, c.params)
			if r.Path == core.PathNATL {
				t.Skip("the NATL path prints per-trajectory throughput, no steady-vs-total table in the text")
			}
			var text bytes.Buffer
			if err := sinks.WriteReport(&text, sinks.ReportInput{Result: r, RunPath: dir}); err != nil {
				t.Fatal(err)
			}
			want := textNumbers(t, text.String())
			if len(want) < 8 || len(want["TPS system"]) == 0 {
				t.Fatalf("read %d rows from the text report, want the rates and TTFT/TPOT quantiles:\n%s", len(want), text.String())
			}
			got := pageCompare(t, renderRun(t, r, dir))
			for name, w := range want {
				g, ok := got[name]
				if !ok {
					t.Errorf("%s: in the text report, not on the page", name)
					continue
				}
				steady, total := w[0], w[len(w)-1]
				same := func(page, text string) bool { return page == text || strings.HasPrefix(page, text+" ") }
				if !same(g[0], steady) || !same(g[2], total) {
					t.Errorf("%s: text steady %s total %s, page %q / %q", name, steady, total, g[0], g[2])
				}
				if len(w) == 3 {
					ci := w[1]
					if ci == "n/a" || strings.Contains(ci, "n/a") {
						if !strings.HasPrefix(g[1], "CI n/a") {
							t.Errorf("%s: text CI %s, page %q", name, ci, g[1])
						}
					} else if g[1] != ci {
						t.Errorf("%s: text CI %s, page %q", name, ci, g[1])
					}
				}
			}
		})
	}
}
