package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// longRunSpec is synth clean_ramp stretched into a soak test with a small
// dataset (issue 32): 10,000 passes of S samples, S in flight at most
// (at least 4), the ramp ten times as many super-passes long.
func longRunSpec(S int, passes float64) (synth.Spec, error) {
	spec, err := synth.PresetSpec("clean_ramp", 1)
	if err != nil {
		return spec, err
	}
	spec.DatasetSize, spec.Passes = S, passes
	spec.Concurrency = min(spec.Concurrency, max(S, 4))
	spec.RampSuperPasses *= 10
	return spec, nil
}

// longRunRSSGoal is the peak RSS budget of 10,000 super-passes of 20
// samples (issue 32: 500 MB), bytes.
const longRunRSSGoal = 500e6

// longRunSection measures `steadysweep analyze` of runs of 10,000
// super-passes (issue 32's targets: of 20 samples ≤ 2 s wall and ≤ 500 MB
// RSS, of one sample ≤ 5 s), with the word counter and no column cache,
// the earliest-stop search each ran (from the JSON). The per-config cost
// through a whole sweep is the sweeprows section's.
func longRunSection(e *env) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "## 8. Long runs (issue 32)\n\n")
	passes := 10000.0
	if e.quick {
		passes = 1000
	}
	fmt.Fprintf(&b, "synth clean_ramp stretched to %.0f passes of a dataset of S samples (`longRunSpec`: at most S in flight, at "+
		"least 4; the ramp 10× longer), analysed by `steadysweep analyze DIR --tokenizer words --no-cache --json OUT` "+
		"(default parameters, so the earliest-stop search and the reference diagnostic tables included), %d runs each, median (range); "+
		"peak RSS by %s. The plateau scans, the MSER trim and the settling fit are linear in the super-passes, the step scans of "+
		"a grown window and the level-shift split try only the splits a bound cannot rule out, the diagnostics' rolling windows "+
		"slide their sorted values and slopes; the drift fits above 1024 points use block means (D37); Hamed–Rao's autocorrelations and "+
		"Sen's slope are O(n log n) and exact; the earliest-stop search of a run of more than 512 super-passes probes a geometric "+
		"grid of prefixes, and only when the full run meets the rule (D39; *stop search*: the JSON's `earliest_stop`). "+
		"Also `go test -run '^$' -bench LongRun -benchtime 1x ./core/`.\n\n",
		passes, min(e.reps, 3), bench.RSSMethod())
	fmt.Fprintf(&b, "| S | super-passes | samples | wall | CPU | peak RSS | stop search | goal |\n|---:|---:|---:|---:|---:|---:|---|---|\n")
	for _, c := range []struct {
		S     int
		goalS float64
	}{{20, 2}, {1, 5}} {
		dir := filepath.Join(e.work, fmt.Sprintf("longrun-%d", c.S))
		spec, err := longRunSpec(c.S, passes)
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(filepath.Join(dir, "events.jsonl")); err != nil {
			e.logf("longrun: generating %.0f passes of %d", passes, c.S)
			if _, err := synth.Generate(dir, spec); err != nil {
				return "", err
			}
		}
		out := filepath.Join(e.work, fmt.Sprintf("longrun-%d.json", c.S))
		cs, err := children(e, min(e.reps, 3), fmt.Sprintf("longrun: analyze S=%d", c.S), func() *exec.Cmd { return analyzeCmd(e, dir, out) })
		if err != nil {
			return "", err
		}
		search, err := stopSearchOf(out)
		if err != nil {
			return "", err
		}
		wall, rss := walls(cs), rsss(cs)
		goal := fmt.Sprintf("≤ %.0f s wall", c.goalS)
		if c.S == 20 {
			goal += ", ≤ 500 MB"
		}
		fmt.Fprintf(&b, "| %d | %.0f | %d | %s s | %s s | %s | %s | %s |\n", c.S, passes, int(passes)*c.S, fmtRange(wall, "%.2f"),
			fmtRange(cpus(cs), "%.2f"), fmtBytes(bench.Median(rss)), search, goal)
		measured := fmt.Sprintf("%.2f s wall, %.2f s CPU, %s", bench.Median(wall), bench.Median(cpus(cs)), fmtBytes(bench.Median(rss)))
		// S = 20 has an RSS budget too: both must hold.
		v := verdict(c.goalS/bench.Median(wall), 1, "")
		if c.S == 20 {
			v = verdictBoth(c.goalS/bench.Median(wall), longRunRSSGoal/bench.Median(rss))
		}
		e.addTarget(target{
			key:      fmt.Sprintf("i32-long%d", c.S),
			name:     fmt.Sprintf("analyze of %.0f super-passes of %d sample(s)", passes, c.S),
			goal:     goal,
			measured: measured,
			ratio:    fmt.Sprintf("%.2f× the wall budget", bench.Median(wall)/c.goalS),
			verdict:  v,
		})
	}
	b.WriteString("\n")
	return b.String(), nil
}

// stopSearchOf summarises the earliest-stop search of an analyze JSON:
// found or not, the prefixes analysed and the grid.
func stopSearchOf(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var doc struct {
		EarliestStop *struct {
			Found    bool   `json:"found"`
			Analysed int    `json:"prefixes_analysed"`
			Grid     string `json:"prefix_grid"`
			Stop     *struct {
				N int `json:"n_super_passes"`
			} `json:"stop"`
		} `json:"earliest_stop"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	es := doc.EarliestStop
	switch {
	case es == nil:
		return "none", nil
	case es.Found && es.Stop != nil:
		return fmt.Sprintf("stop after %d super-passes, %d prefixes (%s)", es.Stop.N, es.Analysed, es.Grid), nil
	}
	return fmt.Sprintf("no stop, %d prefixes (%s)", es.Analysed, es.Grid), nil
}
