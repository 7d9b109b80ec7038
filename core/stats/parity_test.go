package stats

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestParityOutputs recomputes, from the reference's own JSON outputs in
// ../shared/parity/expected (the Python reference at 40b78bfe under CPython
// 3.12.1, glibc x86-64), every number that is a function of other numbers in
// the same file, and requires bit equality:
//
//   - cov[w][metric].cov = CoV of the trailing w trajectory points (§9);
//   - drift[w][metric] whole-run and rolling verdicts of all five algorithms
//     on the trajectories (§9, §7);
//   - global_trend verdicts of the watched metrics over post[sp_lo:] when no
//     super-pass lacks TPOT (§10.6);
//   - the 20 histogram edges of ttft/tpot, from their min and max (§5.10,
//     glibc pow);
//   - pettitt.pvalue from k_stat and n_post_warmup (§10.5, glibc exp);
//   - tps.system_ci from per_super_pass issue spans and tokens (§10.7, §5.9);
//   - short_window.cov_b = CoV of the window's per-super-pass tpot_p50.
func TestParityOutputs(t *testing.T) {
	dir := requireShared(t, filepath.Join("parity", "expected"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	counts := map[string]int{}
	runs := 0
	for _, path := range files {
		base := filepath.Base(path)
		if base == "index.json" || strings.Contains(base, ".cli.") {
			continue
		}
		doc := loadJSON(t, path)
		if _, ok := doc["trajectories"]; !ok {
			continue // the agentic (NATL) blob has another shape
		}
		runs++
		t.Run(base, func(t *testing.T) {
			c := &checker{t: t}
			parityTables(c, doc, counts)
			paritySteady(c, doc, counts)
		})
	}
	if runs == 0 {
		t.Fatal("no parity outputs found")
	}
	t.Logf("%d reference outputs: %v", runs, counts)
}

func parityTables(c *checker, doc map[string]any, counts map[string]int) {
	traj := obj(doc, "trajectories")
	for w, v := range obj(doc, "cov") {
		size, _ := strconv.Atoi(w)
		for metric, cell := range v.(map[string]any) {
			tr := floats(c.t, traj[metric])
			trailing := tr
			if len(tr) >= size && size > 0 {
				trailing = tr[len(tr)-size:]
			}
			want, _ := num(cell.(map[string]any), "cov")
			if len(trailing) < 2 {
				continue
			}
			c.prefix = "cov[" + w + "][" + metric + "]: "
			c.exact("cov", CoV(trailing), want)
			counts["cov"]++
		}
	}
	for w, v := range obj(doc, "drift") {
		size, _ := strconv.Atoi(w)
		for metric, entry := range v.(map[string]any) {
			e := entry.(map[string]any)
			tr := floats(c.t, traj[metric])
			c.prefix = "drift[" + w + "][" + metric + "].whole_run: "
			counts["verdict"] += checkVerdicts(c, tr, obj(e, "whole_run"))
			rolling, _ := e["rolling"].([]any)
			for _, r := range rolling {
				rw := r.(map[string]any)
				win := floats(c.t, rw["window"])
				lo, hi := int(win[0]), int(win[1])
				if hi-lo != size {
					c.fail("rolling window size", hi-lo, size)
				}
				c.prefix = "drift[" + w + "][" + metric + "][" + strconv.Itoa(lo) + "]: "
				counts["verdict"] += checkVerdicts(c, tr[lo:hi], obj(rw, "verdicts"))
			}
		}
	}
}

func checkVerdicts(c *checker, xs []float64, want map[string]any) int {
	n := 0
	for _, a := range TrendAlgos {
		w, ok := want[string(a)].(string)
		if !ok {
			c.fail(string(a), "missing", "a verdict")
			continue
		}
		c.str(string(a), string(TrendVerdict(a, xs, Alpha)), w)
		n++
	}
	return n
}

func paritySteady(c *checker, doc map[string]any, counts map[string]int) {
	ss := obj(doc, "steady_state")
	if ss == nil {
		return
	}
	for _, key := range []string{"ttft", "tpot"} {
		s := obj(ss, key)
		if s == nil {
			continue
		}
		lo, hi := mustNum(c.t, s, "min"), mustNum(c.t, s, "max")
		h := Histogram([]float64{lo, hi}, SummaryBins)
		bins, _ := s["histogram"].([]any)
		if len(bins) != len(h) {
			c.fail(key+" histogram bins", len(h), len(bins))
			continue
		}
		c.prefix = key + ".histogram: "
		for i, b := range bins {
			m := b.(map[string]any)
			c.exact("lo["+strconv.Itoa(i)+"]", h[i].Lo, mustNum(c.t, m, "lo"))
			c.exact("hi["+strconv.Itoa(i)+"]", h[i].Hi, mustNum(c.t, m, "hi"))
			counts["histogram edge"] += 2
		}
	}
	post := int(mustNum(c.t, doc, "n_post_warmup"))
	if p := obj(obj(ss, "anomaly"), "pettitt"); p != nil {
		c.prefix = "anomaly.pettitt: "
		c.exact("pvalue", pettittP(mustNum(c.t, p, "k_stat"), post), mustNum(c.t, p, "pvalue"))
		counts["pettitt p"]++
	}
	win := obj(ss, "window")
	if win == nil {
		return
	}
	lo, hi := int(mustNum(c.t, win, "sp_lo")), int(mustNum(c.t, win, "sp_hi"))
	sps, _ := doc["per_super_pass"].([]any)
	if tps := obj(ss, "tps"); tps != nil && hi <= len(sps) {
		var rates []float64
		for _, v := range sps[lo:hi] {
			sp := v.(map[string]any)
			first := int64(mustNum(c.t, sp, "first_issue_ns"))
			last := int64(mustNum(c.t, sp, "last_issue_ns"))
			if last > first && first >= 0 {
				rates = append(rates, mustNum(c.t, sp, "out_tokens")/(float64(last-first)/1e9))
			}
		}
		system := mustNum(c.t, tps, "system")
		want := floats(c.t, tps["system_ci"])
		gotLo, gotHi := system, system
		if len(rates) >= 2 {
			l, h := BatchMeansCI(rates)
			half := (h - l) / 2
			gotLo, gotHi = system-half, system+half
		}
		c.prefix = "tps: "
		c.exact("system_ci[0]", gotLo, want[0])
		c.exact("system_ci[1]", gotHi, want[1])
		counts["system_ci"]++
	}
	// Global trend and cov_b use post[lo:]/[lo, hi) directly when every
	// super-pass has a tpot_p50 (no gaps, so trajectory index = sp index).
	traj := obj(doc, "trajectories")
	tpot := floats(c.t, traj["tpot_p50"])
	if len(tpot) != post {
		return
	}
	if sw := obj(ss, "short_window"); sw != nil {
		c.prefix = "short_window: "
		c.exact("cov_b", CoV(tpot[lo:hi]), mustNum(c.t, sw, "cov_b"))
		counts["cov_b"]++
	}
	gate := TrendMKHamedRao // CLI default --trend-gate
	for metric, v := range obj(ss, "global_trend") {
		tr := floats(c.t, traj[metric])
		if len(tr) != post {
			continue
		}
		want := v.(string)
		got := VerdictInsufficient
		if len(tr[lo:]) >= MinTrendN {
			got = TrendVerdict(gate, tr[lo:], Alpha)
		}
		c.prefix = "global_trend: "
		c.str(metric, string(got), want)
		counts["global_trend"]++
	}
}
