package htmlpage_test

import (
	"fmt"
	"html"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks"
)

// TestSweepPageStopTotals: the sweep page's "could have stopped" table
// (issue 33) shows, per model and concurrency, the totals of the rows the
// sweep wrote, read back from OUT/rows and summed here independently of
// sinks.StopTotals: runs, runs with a stop (stop_saved_s not null), stops
// the full run agrees with (stop_agrees), the wall time (run_duration_s)
// and the part after the stop in hours, and its share — then a total row.
// The runs are planted-truth runs of synth.AccuracySuite(1) (seed 1; 013
// stops before its end, as core's TestEarliestStopClean shows): three
// concurrencies, one with two runs, and runs with and without a stop.
// The sweep ran the default config, so the page has its table only; rows
// of two other configs get a table each, summing their own rows.
func TestSweepPageStopTotals(t *testing.T) {
	picked := []string{"013_clean_above", "014_clean_above", "015_clean_above", "042_stair_up"}
	var paths []string
	for _, r := range synth.AccuracySuite(1) {
		if !slices.ContainsFunc(picked, func(p string) bool { return strings.HasPrefix(r.Name, p) }) {
			continue
		}
		dir := filepath.Join(t.TempDir(), r.Name)
		if _, err := synth.Generate(dir, r.Spec); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, dir)
	}
	s := sweepDirs(t, paths)
	page := renderSweep(t, s)

	type acc struct {
		runs, stops, agree int
		runS, savedS       float64
	}
	type key struct {
		model string
		conc  int64
	}
	by := map[key]*acc{}
	var total acc
	for _, r := range s.Rows {
		model := r.Meta.Model
		if model == "" {
			model = "(unknown)"
		}
		k := key{model, int64(max(r.Meta.Concurrency, 0))}
		a := by[k]
		if a == nil {
			a = &acc{}
			by[k] = a
		}
		for _, x := range []*acc{a, &total} {
			x.runs++
			if d := r.Meta.RunDurationS; !math.IsNaN(d) {
				x.runS += d
			}
			if sv := r.Outcome.StopSavedS; !math.IsNaN(sv) {
				x.stops++
				x.savedS += sv
				if r.Outcome.StopAgrees {
					x.agree++
				}
			}
		}
	}
	if total.stops == 0 || total.stops == total.runs {
		t.Fatalf("%d stops of %d rows: the runs should give rows with and without a stop", total.stops, total.runs)
	}
	if len(by) < 2 {
		t.Fatalf("%d model/concurrency groups, want ≥ 2", len(by))
	}
	line := func(model, conc string, a acc) []string {
		frac := "n/a"
		if a.runS > 0 {
			frac = fmt.Sprintf("%.1f%%", 100*a.savedS/a.runS)
		}
		return []string{model, conc, fmt.Sprint(a.runs), fmt.Sprint(a.stops), fmt.Sprint(a.agree),
			fmt.Sprintf("%.2f", a.runS/3600), fmt.Sprintf("%.2f", a.savedS/3600), frac}
	}
	var want [][]string
	keys := make([]key, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	// By model, then concurrency as a number (0, null, first).
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].model != keys[j].model {
			return keys[i].model < keys[j].model
		}
		return keys[i].conc < keys[j].conc
	})
	for _, k := range keys {
		conc := "n/a"
		if k.conc > 0 {
			conc = fmt.Sprint(k.conc)
		}
		want = append(want, line(k.model, conc, *by[k]))
	}
	want = append(want, line("total", "", total))

	sec := regexp.MustCompile(`(?s)<section id="stops">.*?</section>`).FindString(page)
	if sec == "" {
		t.Fatal("no \"could have stopped\" section on the page")
	}
	if n := strings.Count(sec, "<table"); n != 1 {
		t.Fatalf("%d tables, want 1 (the default config's)", n)
	}
	head := regexp.MustCompile(`<th scope="col">([^<]*)</th>`).FindAllStringSubmatch(sec, -1)
	if len(head) != 8 || head[0][1] != "model" || head[5][1] != "run h" || head[7][1] != "saved" {
		t.Errorf("head %v", head)
	}
	got := tableCells(sec)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("page table\n%q\nwant (from the rows read back)\n%q", got, want)
	}

	// Without the default config the page has a table per config, each
	// summing only its own rows: here the same rows under two other ids,
	// the second with its stops removed.
	var rows []sinks.Row
	for _, r := range s.Rows {
		x, y := r, r
		x.ConfigID, x.ConfigLabel = "x", "x"
		y.ConfigID, y.ConfigLabel = "y", "y"
		y.Outcome.StopSavedS, y.Outcome.StopAtS, y.Outcome.StopAgrees = math.NaN(), math.NaN(), false
		rows = append(rows, x, y)
	}
	s.Rows = rows
	page = renderSweep(t, s)
	for _, id := range []string{"x", "y"} {
		tab := regexp.MustCompile(`(?s)<div class="tablewrap" id="table-stops-` + id + `">.*?</table>`).FindString(page)
		got := tableCells(tab)
		wantTotal := want[len(want)-1]
		if id == "y" {
			wantTotal = line("total", "", acc{runs: total.runs, runS: total.runS})
		}
		if len(got) != len(want) || fmt.Sprint(got[len(got)-1]) != fmt.Sprint(wantTotal) {
			t.Errorf("config %s: table %q, want %d rows ending %q", id, got, len(want), wantTotal)
		}
	}
}

// tableCells is the text of the body cells of the HTML in s, row by row.
func tableCells(s string) [][]string {
	tag := regexp.MustCompile(`<[^>]*>`)
	var got [][]string
	for _, tr := range regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(s, -1) {
		var cells []string
		for _, td := range regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`).FindAllStringSubmatch(tr[1], -1) {
			cells = append(cells, html.UnescapeString(tag.ReplaceAllString(td[1], "")))
		}
		if len(cells) > 0 {
			got = append(got, cells)
		}
	}
	return got
}
