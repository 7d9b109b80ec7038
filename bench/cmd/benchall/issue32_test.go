package main

import (
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/bench"
)

// The summary lists every goal of issue 32 once, in order, with the rows
// the sections added and, for the others, which section to run.
func TestIssue32Summary(t *testing.T) {
	targets := []target{
		{key: "i32-version", measured: "9.0 ms CPU", ratio: "0.90×", verdict: "met"},
		{name: "ingest per core", measured: "558 MB/CPU-s", verdict: "met"}, // another issue's: not listed
	}
	got := issue32Summary(targets, map[string]bool{"startup": true, "streamed": true}, false)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	var rows []string
	for _, l := range lines {
		if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| target ") {
			rows = append(rows, l)
		}
	}
	if len(rows) != len(issue32Goals) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(issue32Goals), got)
	}
	for i, g := range issue32Goals {
		if !strings.HasPrefix(rows[i], "| "+g.name+" | "+g.goal+" | ") {
			t.Errorf("row %d = %q, want goal %q", i, rows[i], g.name)
		}
	}
	for _, c := range []struct{ key, want string }{
		{"i32-version", "| 9.0 ms CPU | 0.90× | met |"},
		{"i32-cold", "| not measured | – | not measured (see its section) |"},
		{"i32-sweeprows", "| not measured | – | not measured (`-sections sweeprows` not run) |"},
	} {
		for i, g := range issue32Goals {
			if g.key == c.key && !strings.HasSuffix(rows[i], c.want) {
				t.Errorf("%s: row %q, want it to end %q", c.key, rows[i], c.want)
			}
		}
	}
	if strings.Contains(got, "ingest per core") {
		t.Errorf("the summary lists another issue's target:\n%s", got)
	}
}

// streamedTargets on §9's five interleaved rounds (bench/RESULTS.md): the
// reference 3.828–4.176 s, cold 0.194–0.247 s, warm 0.059–0.069 s.
func TestStreamedTargets(t *testing.T) {
	kids := func(walls []float64, rss int64) []bench.Child {
		out := make([]bench.Child, len(walls))
		for i, w := range walls {
			out[i] = bench.Child{Wall: w, CPU: w, MaxRSS: rss}
		}
		return out
	}
	r := streamedRuns{
		ref:       kids([]float64{3.828, 4.1, 4.135, 4.15, 4.176}, 36<<20),
		cold:      kids([]float64{0.194, 0.2, 0.228, 0.24, 0.247}, 21<<20),
		warm:      kids([]float64{0.059, 0.06, 0.064, 0.068, 0.069}, 21<<20),
		afterCold: kids([]float64{0.07, 0.08, 0.09}, 22<<20),
	}
	ts := streamedTargets(r)
	want := map[string]string{
		"i32-cold": "**missed by 9%**; vs fastest **missed by 16%**",
		"i32-warm": "**missed by 35%**; vs fastest **missed by 40%**; right after cold missed by the medians",
		"i32-rss":  "met",
	}
	for _, tg := range ts {
		if tg.verdict != want[tg.key] {
			t.Errorf("%s: verdict %q, want %q", tg.key, tg.verdict, want[tg.key])
		}
	}
	if len(ts) != len(want) {
		t.Errorf("%d targets, want %d", len(ts), len(want))
	}
}

// addTarget keeps one row per key: the sweep and sweeprows sections both
// report the per-config sweep cost.
func TestAddTargetReplacesByKey(t *testing.T) {
	var e env
	e.addTarget(target{name: "a"})
	e.addTarget(sweepRowsTarget([]float64{120}))
	e.addTarget(target{name: "b"})
	e.addTarget(sweepRowsTarget([]float64{101, 98, 125}))
	if len(e.targets) != 3 {
		t.Fatalf("%d targets, want 3", len(e.targets))
	}
	if got, want := e.targets[1].measured, "101 (98–125) µs CPU/config"; got != want {
		t.Errorf("measured = %q, want %q", got, want)
	}
	if got := e.targets[1].verdict; got != "met" {
		t.Errorf("verdict = %q, want met", got)
	}
}

// §10's second idle run (bench/RESULTS.md): the reference 2.79 s (2.76–
// 2.87), our cold analyze 0.141 s, warm 0.045 s: 19.7× and 62× by the
// medians.
func TestSpeedupVerdicts(t *testing.T) {
	for _, c := range []struct {
		name      string
		ref, ours []float64
		goal      float64
		want      string
	}{
		{"§10 cold: missed both ways", []float64{2.76, 2.79, 2.87}, []float64{0.137, 0.141, 0.152}, 20, "**missed by 1%**; vs fastest **missed by 2%**"},
		{"met only by the medians", []float64{2.0, 4.0, 4.2}, []float64{0.19, 0.2, 0.21}, 20, "met by the medians; vs fastest **missed by 50%**"},
		{"met both ways", []float64{3.9, 4.0, 4.1}, []float64{0.03, 0.039, 0.05}, 100, "met (also vs fastest)"},
		{"exactly at the goal", []float64{2.0, 2.0}, []float64{0.1}, 20, "met (also vs fastest)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := speedupVerdict(speedupOf(c.ref, c.ours), c.goal); got != c.want {
				t.Errorf("verdict = %q, want %q", got, c.want)
			}
		})
	}
	s := speedupOf([]float64{2.76, 2.79, 2.87}, []float64{0.045})
	if got, want := s.String(), "62.0× (medians), 61.3× vs fastest"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := speedupOf([]float64{4.0}, []float64{0.039}).String(), "103× (medians), 103× vs fastest"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}
