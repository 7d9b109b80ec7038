package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/steadysweep/steadysweep/bench"
)

var streamedOursFlag = flag.Int("streamed-ours", 3, "in the streamed section, runs of each of ours (cold, warm, warm right after cold) per reference run; the reference runs -reps times")

// streamedRuns are the end-to-end runs of the streamed section.
type streamedRuns struct {
	cold      []bench.Child // a new cache, which the run fills
	warm      []bench.Child // a hit on an entry an earlier run wrote, never right after a cold run
	afterCold []bench.Child // a hit right after the cold run that wrote the entry
	ref       []bench.Child
	manyCold  []bench.Child // the chunk-per-word log, cold
}

// streamedEndToEnd times `steadysweep analyze` of the two-chunk run (two,
// of twoSize bytes) as a user runs it — the column cache on — against the
// reference, in rounds: per round one reference run, then -streamed-ours
// triples of ours: warm (the entry written by an untimed cold run before
// the first round; never right after a cold run), cold (a new cache
// directory, which the run fills), and warm again right after that cold
// run on the entry it just wrote. The reference's time moves with the
// host more than ours, so every round measures all of them, and the
// ratios are given by the medians and against the reference's fastest run.
// One cold run of the chunk-per-word log (many) ends the section.
func streamedEndToEnd(e *env, two string, twoSize int64, many string, manySize int64) (string, error) {
	out := filepath.Join(e.work, "streamed-out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	spSize := fmt.Sprint(bench.AnalyzeSpec().DatasetSize)
	// Each kind writes its own JSON: they are compared at the end.
	jsonOf := map[string]string{}
	for _, k := range []string{"cold", "warm", "after-cold", "many", "ref"} {
		jsonOf[k] = filepath.Join(out, k+".json")
	}
	ours := func(dir, cache, kind string) *exec.Cmd {
		return exec.CommandContext(e.ctx, e.bin, "analyze", dir, "--tokenizer", "words", "--compat", "reference",
			"--superpass-size", spSize, "--cache-dir", cache, "--json", jsonOf[kind])
	}
	warmCache := filepath.Join(out, "warm-cache")
	// The warm cache's entry is written here, untimed, and read once
	// untimed, so that no timed warm run follows the cold run that wrote it.
	for _, kind := range []string{"cold", "warm"} {
		if _, err := bench.RunChild(ours(two, warmCache, kind)); err != nil {
			return "", err
		}
	}
	if _, err := ensureLauncher(e); err != nil {
		return "", err
	}
	// Timed runs go through the launcher: its wall and rusage are the
	// command's alone (GNU time's own start would add milliseconds to a
	// warm run of tens).
	var floorKB int64
	timed := func(c *exec.Cmd) (bench.Child, error) {
		run, err := launch(e, append([]string{c.Path}, c.Args[1:]...), c.Env)
		floorKB = max(floorKB, run.floorKB)
		return run.child, err
	}
	rf := findReference()
	rounds, k := e.reps, max(1, *streamedOursFlag)
	var r streamedRuns
	for round := range rounds {
		if rf.why == "" {
			e.logf("streamed: round %d/%d: reference", round+1, rounds)
			c, err := timed(referenceCmd(e, rf.py, rf.path, two, jsonOf["ref"]))
			if err != nil {
				return "", err
			}
			r.ref = append(r.ref, c)
		}
		e.logf("streamed: round %d/%d: ours ×%d (warm, cold, warm right after cold)", round+1, rounds, k)
		for j := range k {
			w, err := timed(ours(two, warmCache, "warm"))
			if err != nil {
				return "", err
			}
			cache := filepath.Join(out, fmt.Sprintf("cold-cache-%d-%d", round, j))
			c, err := timed(ours(two, cache, "cold"))
			if err != nil {
				return "", err
			}
			a, err := timed(ours(two, cache, "after-cold"))
			if err != nil {
				return "", err
			}
			if err := os.RemoveAll(cache); err != nil {
				return "", err
			}
			r.warm, r.cold, r.afterCold = append(r.warm, w), append(r.cold, c), append(r.afterCold, a)
		}
	}
	manyCache := filepath.Join(out, "many-cache")
	mc, err := timed(ours(many, manyCache, "many"))
	if err != nil {
		return "", err
	}
	r.manyCold = append(r.manyCold, mc)
	if err := os.RemoveAll(manyCache); err != nil {
		return "", err
	}
	same := sameFile(jsonOf["cold"], jsonOf["warm"]) && sameFile(jsonOf["cold"], jsonOf["after-cold"])

	var b bytes.Buffer
	fmt.Fprintf(&b, "### End to end\n\n```sh\nsteadysweep analyze RUN --tokenizer words --compat reference --superpass-size %s --cache-dir CACHE --json ours.json\n"+
		"STEADYSWEEP_REFERENCE=... python3 bench/scripts/reference_shim.py RUN --json ref.json\n```\n\n", spSize)
	fmt.Fprintf(&b, "Fresh processes in %d rounds; each round runs the reference once, then %d times: ours *warm* (CACHE holds the entry "+
		"an untimed cold run wrote before the first round, which one untimed warm run then read; no timed warm run follows a cold one), "+
		"ours *cold* (CACHE a new directory, which the run fills) and ours *warm right after cold* (the entry that cold run has just written, "+
		"its pages fresh in the page cache). Each process is started by the static launcher of the start-up section, which reports "+
		"the command's own wall (fork to reap), CPU (user+system), peak RSS and minor page faults from `wait4` — no wrapper's start in them; "+
		"the launcher was at most %.1f MB resident when it started one (a peak at or below that would be the launcher's). Median (min–max). "+
		"Load average at the end: %s.\n\n", rounds, k, float64(floorKB<<10)/1e6, bench.LoadAvg())
	fmt.Fprintf(&b, "| command | runs | wall | CPU | peak RSS | minor faults |\n|---|---:|---:|---:|---:|---:|\n")
	row := func(name string, cs []bench.Child) {
		if len(cs) > 0 {
			fmt.Fprintf(&b, "| %s | %d | %s s | %s s | %s | %s |\n", name, len(cs), fmtRange(walls(cs), "%.3f"), fmtRange(cpus(cs), "%.3f"),
				fmtBytes(bench.Median(rsss(cs))), fmtRange(minflts(cs), "%.0f"))
		}
	}
	row(fmt.Sprintf("analyze %s two-chunk, cold (fills a new cache)", fmtMB(twoSize)), r.cold)
	row(fmt.Sprintf("analyze %s two-chunk, warm (entry written by an earlier run)", fmtMB(twoSize)), r.warm)
	row(fmt.Sprintf("analyze %s two-chunk, warm right after the cold run that wrote the entry", fmtMB(twoSize)), r.afterCold)
	row(fmt.Sprintf("analyze %s chunk-per-word, cold", fmtMB(manySize)), r.manyCold)
	row(fmt.Sprintf("reference %s two-chunk (Python %s)", fmtMB(twoSize), rf.info), r.ref)
	fmt.Fprintf(&b, "\nOur JSON outputs of the cold, warm and warm-after-cold runs are %s. Warm right after cold over warm: %.2f× the wall, %.2f× the CPU (medians).\n\n",
		map[bool]string{true: "byte-identical", false: "**not identical**"}[same],
		bench.Median(walls(r.afterCold))/bench.Median(walls(r.warm)), bench.Median(cpus(r.afterCold))/bench.Median(cpus(r.warm)))
	if rf.why != "" {
		fmt.Fprintf(&b, "The reference was **not measured**: %s.\n\n", rf.why)
		ours := map[string]string{
			"i32-cold": fmt.Sprintf("ours %s s wall", fmtRange(walls(r.cold), "%.3f")),
			"i32-warm": fmt.Sprintf("ours %s s wall (right after cold %s s)", fmtRange(walls(r.warm), "%.3f"), fmtRange(walls(r.afterCold), "%.3f")),
			"i32-rss":  fmt.Sprintf("ours %s / %s (cold / warm)", fmtBytes(bench.Median(rsss(r.cold))), fmtBytes(bench.Median(rsss(r.warm)))),
		}
		for _, k := range []string{"i32-cold", "i32-warm", "i32-rss"} {
			e.addTarget(target{key: k, measured: ours[k] + "; the reference not run", ratio: "–", verdict: "not measured (" + rf.why + ")"})
		}
		return b.String(), nil
	}
	if agree, desc, err := sameSteadyState(jsonOf["cold"], jsonOf["ref"]); err == nil {
		fmt.Fprintf(&b, "Outputs: `--compat reference` and the reference %s (%s).\n\n", map[bool]string{true: "agree", false: "**disagree**"}[agree], desc)
	}
	fmt.Fprintf(&b, "By CPU time (user+system, which the machine's load disturbs least; the targets are wall): cold %s, warm %s, warm right after cold %s.\n\n",
		speedupOf(cpus(r.ref), cpus(r.cold)), speedupOf(cpus(r.ref), cpus(r.warm)), speedupOf(cpus(r.ref), cpus(r.afterCold)))
	refLo, _ := bench.MinMax(walls(r.ref))
	fmt.Fprintf(&b, "The budgets these ratios imply: 20× the reference's median is ≤ %.3f s cold, 100× ≤ %.1f ms warm; "+
		"against its fastest run ≤ %.3f s and ≤ %.1f ms.\n\n", bench.Median(walls(r.ref))/20, bench.Median(walls(r.ref))/100*1e3, refLo/20, refLo/100*1e3)
	for _, t := range streamedTargets(r) {
		e.addTarget(t)
	}
	return b.String(), nil
}

// streamedTargets are the summary rows of the streamed runs: cold ≥ 20×
// and warm ≥ 100× the reference's wall (by the medians, and against the
// reference's fastest run), peak RSS ≤ the reference's.
func streamedTargets(r streamedRuns) []target {
	rw := walls(r.ref)
	rlo, rhi := bench.MinMax(rw)
	refText := fmt.Sprintf("%.2f (%.2f–%.2f)", bench.Median(rw), rlo, rhi)
	cold, warm, after := speedupOf(rw, walls(r.cold)), speedupOf(rw, walls(r.warm)), speedupOf(rw, walls(r.afterCold))
	afterV := "met"
	if after.med < 100 {
		afterV = "missed"
	}
	// RSS: our largest median against the reference's median, and our
	// largest peak against the reference's smallest.
	oursRSS := max(bench.Median(rsss(r.cold)), bench.Median(rsss(r.warm)), bench.Median(rsss(r.afterCold)))
	_, oursTop := bench.MinMax(append(append(rsss(r.cold), rsss(r.warm)...), rsss(r.afterCold)...))
	refRSS := bench.Median(rsss(r.ref))
	refLow, _ := bench.MinMax(rsss(r.ref))
	rssV := verdict(refRSS/oursRSS, 1, "")
	if oursTop > refLow {
		rssV += fmt.Sprintf("; our largest peak %s is above the reference's smallest %s", fmtBytes(oursTop), fmtBytes(refLow))
	}
	return []target{
		{key: "i32-cold", name: "streamed two-chunk: cold analyze vs reference", goal: "≥ 20× wall (2 cores)",
			measured: fmt.Sprintf("%s s vs %s s", fmtRange(walls(r.cold), "%.3f"), refText),
			ratio:    cold.String(), verdict: speedupVerdict(cold, 20)},
		{key: "i32-warm", name: "streamed two-chunk: warm analyze vs reference", goal: "≥ 100× wall",
			measured: fmt.Sprintf("%s s vs %s s; right after the cold run that wrote the entry %s s", fmtRange(walls(r.warm), "%.3f"), refText, fmtRange(walls(r.afterCold), "%.3f")),
			ratio:    fmt.Sprintf("%s; right after cold %s", warm, after),
			verdict:  speedupVerdict(warm, 100) + fmt.Sprintf("; right after cold %s by the medians", afterV)},
		{key: "i32-rss", name: "streamed two-chunk: peak RSS, cold and warm", goal: "≤ reference's",
			measured: fmt.Sprintf("%s / %s / %s (cold / warm / right after cold) vs %s", fmtBytes(bench.Median(rsss(r.cold))), fmtBytes(bench.Median(rsss(r.warm))),
				fmtBytes(bench.Median(rsss(r.afterCold))), fmtBytes(refRSS)),
			ratio: fmt.Sprintf("%.2f× the reference's", oursRSS/refRSS), verdict: rssV},
	}
}

func minflts(cs []bench.Child) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = float64(c.MinFlt)
	}
	return out
}
