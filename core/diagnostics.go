package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// CovCell is one cell of the CoV table (detector spec §9): the CoV of the
// trailing window of a metric's trajectory and its pass flag per bound.
type CovCell struct {
	Gated bool
	// N is the number of trajectory points in the trailing window.
	N int
	// CoV is the coefficient of variation; NaN (JSON null) when N < 2.
	CoV float64
	// Passes holds CoV ≤ bound per distinct bound (Bounds order); it is
	// meaningless when N < 2 (JSON null).
	Passes []bool
}

// RollingCell is the five verdicts on one rolling window [Lo, Hi) of a
// trajectory (Verdicts). A table holds a cell per window: 1410 of them on
// the 52 super-passes of issue 32's streamed log, 300,000 on a run of
// 10,000; as five strings a cell took 96 bytes of fresh memory, which a
// one-shot analyze pays in page faults. The verdicts are held one byte
// each (24 bytes a cell, and no pointer for the GC to scan).
type RollingCell struct {
	Lo, Hi int
	codes  [5]verdictCode
}

// NewRollingCell is the cell of the window [lo, hi) with verdicts v
// (TrendGates order).
func NewRollingCell(lo, hi int, v [5]stats.Verdict) RollingCell {
	c := RollingCell{Lo: lo, Hi: hi}
	for i, x := range v {
		c.codes[i] = codeOf(x)
	}
	return c
}

// Verdict is the verdict of the cell's algorithm i (TrendGates order).
func (c RollingCell) Verdict(i int) stats.Verdict { return c.codes[i].verdict() }

// Verdicts is the cell's five verdicts in TrendGates order.
func (c RollingCell) Verdicts() [5]stats.Verdict {
	var v [5]stats.Verdict
	for i, x := range c.codes {
		v[i] = x.verdict()
	}
	return v
}

// verdictCode is a stats.Verdict in one byte: its index in verdictCodes.
type verdictCode uint8

// verdictCodes is the verdicts by code (0, a zero cell's, insufficient).
func verdictCodes() [4]stats.Verdict {
	return [4]stats.Verdict{stats.VerdictInsufficient, stats.VerdictSteady, stats.VerdictUp, stats.VerdictDown}
}

// codeOf is v's code; a verdict other than the four is insufficient (the
// trend tests give no other).
func codeOf(v stats.Verdict) verdictCode {
	for i, x := range verdictCodes() {
		if x == v {
			return verdictCode(i)
		}
	}
	return 0
}

func (c verdictCode) verdict() stats.Verdict { return verdictCodes()[c&3] }

// DriftEntry is the drift diagnostics of one metric for one window size:
// the verdicts on the whole trajectory and on every rolling window.
type DriftEntry struct {
	WholeRun [5]stats.Verdict
	Rolling  []RollingCell
}

// WindowDiagnostics is the CoV and drift tables of one window size.
type WindowDiagnostics struct {
	W     int
	Cov   [NumMetrics]CovCell
	Drift [NumMetrics]DriftEntry
}

// trailing returns the reference's trailing window traj[-w:] if
// len(traj) ≥ w, else traj (Python slicing: w = 0 gives all of traj, a
// negative w drops the first |w| points).
func trailing(traj []float64, w int) []float64 {
	if len(traj) < w {
		return traj
	}
	if w > 0 {
		return traj[len(traj)-w:]
	}
	if -w >= len(traj) {
		return traj[:0]
	}
	return traj[-w:]
}

// windowCount is the number of rolling windows [s, s+w) of n points,
// s = 0 … n−w: none if w ≤ 0 or w > n.
func windowCount(n, w int) int {
	if w <= 0 || w > n {
		return 0
	}
	return n - w + 1
}

// distinctBounds returns bounds with repeated values removed, keeping the
// first occurrence (the reference keys a dict by the bound).
func distinctBounds(bounds []float64) []float64 {
	out := make([]float64, 0, len(bounds))
	for _, b := range bounds {
		dup := false
		for _, o := range out {
			if o == b {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, b)
		}
	}
	return out
}

// distinctWindowSizes returns the window sizes in first-occurrence order
// without repeats (the reference keys its tables by str(w)).
func distinctWindowSizes(ws []int) []int {
	out := make([]int, 0, len(ws))
	for _, w := range ws {
		dup := false
		for _, o := range out {
			if o == w {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, w)
		}
	}
	return out
}

// covCell computes the CoV cell of a trajectory for window size w (§9);
// its Passes are passes (len(bounds) long, nil: fresh).
func covCell(traj []float64, w int, gated bool, bounds []float64, passes []bool) CovCell {
	tr := trailing(traj, w)
	c := CovCell{Gated: gated, N: len(tr), CoV: math.NaN()}
	if len(tr) >= 2 {
		c.CoV = stats.CoV(tr)
		if c.Passes = passes; passes == nil {
			c.Passes = make([]bool, len(bounds))
		}
		for i, b := range bounds {
			c.Passes[i] = c.CoV <= b
		}
	}
	return c
}

// driftEntry computes the drift entry of a trajectory for window size w,
// given the verdicts on the whole trajectory: allVerdicts of every rolling
// window, by rt (stats.RollingTrend, which slides what consecutive
// windows share; nil for a fresh one), appended to cells (nil, or empty
// with room for every window: the caller's share of one allocation).
// stop is polled every 64 windows.
func driftEntry(traj []float64, w, minN int, alpha float64, whole [5]stats.Verdict, cells []RollingCell,
	rt *stats.RollingTrend, stop *stopper) DriftEntry {
	d := DriftEntry{WholeRun: whole}
	n := windowCount(len(traj), w)
	if n == 0 || stop.failed() {
		return d
	}
	if d.Rolling = cells[:0]; cells == nil {
		d.Rolling = make([]RollingCell, 0, n)
	}
	if w < minN {
		for lo := range n {
			d.Rolling = append(d.Rolling, NewRollingCell(lo, lo+w, allVerdicts(nil, minN, alpha)))
		}
		return d
	}
	if rt == nil {
		rt = new(stats.RollingTrend)
	}
	rt.Verdicts(traj, w, alpha, func(lo int, v [5]stats.Verdict) bool {
		if lo&63 == 63 && stop.failed() {
			return false
		}
		d.Rolling = append(d.Rolling, NewRollingCell(lo, lo+w, v))
		return true
	})
	return d
}

// diagnosticTables computes the per-window-size tables (§9) over the post-
// warmup trajectories; it ends early (incomplete) when stop fails.
//
// The metrics' tables are independent (each its whole-run verdicts, CoV
// cells and rolling windows, written to its own cells), and on a long run
// they are most of a JSON output's work (10,000 super-passes: 300,000
// rolling windows and ten whole-run trend tests of 10,000 points), so two
// goroutines share them, metric by metric: the tables are the same
// whatever the order. The hook is polled from both, one call at a time.
func diagnosticTables(traj *[NumMetrics][]float64, sizes []int, bounds []float64, minN int, alpha float64,
	stop *stopper) []WindowDiagnostics {
	ms := Metrics()
	out := make([]WindowDiagnostics, len(sizes))
	for i, w := range sizes {
		out[i].W = w
	}
	same := sameTrajectories(traj)
	// The rolling cells of every table in one allocation, each metric's
	// from part[m] on (small allocations of several size classes each
	// take fresh pages).
	var part [NumMetrics]int
	total := 0
	for m := range NumMetrics {
		part[m] = total
		if same[m] == m {
			for _, w := range sizes {
				total += windowCount(len(traj[m]), w)
			}
		}
	}
	slab := make([]RollingCell, total)
	// The CoV cells' pass flags, likewise: a row of bounds per metric
	// and size.
	nb := len(bounds)
	passes := make([]bool, NumMetrics*len(sizes)*nb)
	metric := func(m int, st *stopper, rt *stats.RollingTrend) {
		whole := allVerdicts(traj[m], minN, alpha) // the same for every size
		off := part[m]
		for i, w := range sizes {
			if st.failed() {
				return
			}
			k := windowCount(len(traj[m]), w)
			row := (m*len(sizes) + i) * nb
			out[i].Cov[m] = covCell(traj[m], w, ms[m].Gated, bounds, passes[row:row+nb:row+nb])
			out[i].Drift[m] = driftEntry(traj[m], w, minN, alpha, whole, slab[off:off:off+k], rt, st)
			off += k
		}
	}
	var hook func() error
	if stop != nil {
		hook = stop.fn
	}
	lock := make(chan struct{}, 1)
	poll := func() error {
		if hook == nil {
			return nil
		}
		lock <- struct{}{}
		defer func() { <-lock }()
		return hook()
	}
	next := make(chan int, NumMetrics)
	for m := range NumMetrics {
		if same[m] == m {
			next <- m
		}
	}
	close(next)
	maxW := 0
	for _, w := range sizes {
		maxW = max(maxW, w)
	}
	work := func(st *stopper) {
		var rt stats.RollingTrend // one sliding state per goroutine, for all its windows
		rt.Reserve(maxW)
		for m := range next {
			if st.failed() {
				return
			}
			metric(m, st, &rt)
		}
	}
	mine, helper := &stopper{fn: poll}, &stopper{fn: poll}
	done := make(chan struct{})
	go func() {
		defer close(done)
		work(helper)
	}()
	work(mine)
	<-done
	for _, st := range [2]*stopper{mine, helper} {
		if st.err != nil && stop != nil && stop.err == nil {
			stop.err = st.err
			return nil
		}
	}
	for m, first := range same {
		if first == m {
			continue
		}
		for i := range out { // the same cells but the gate flag; the rolling cells shared, read-only
			out[i].Cov[m] = out[i].Cov[first]
			out[i].Cov[m].Gated = ms[m].Gated
			out[i].Drift[m] = out[i].Drift[first]
		}
	}
	return out
}

// sameTrajectories maps each metric to the first metric whose trajectory
// is the same floats bit for bit (itself if none): its CoV and drift
// tables are the same, computed once. ttft_warm_p50/p90 are ttft_p50/p90
// when every first token is warm (a run without cold starts, as most
// are), a fifth of the tables.
func sameTrajectories(traj *[NumMetrics][]float64) [NumMetrics]int {
	var same [NumMetrics]int
	for m := range traj {
		same[m] = m
		for e := range m {
			if same[e] == e && sameFloats(traj[e], traj[m]) {
				same[m] = e
				break
			}
		}
	}
	return same
}

// sameFloats reports whether a and b hold the same floats bit for bit.
func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
