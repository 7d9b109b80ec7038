package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Plateau is a maximal admissible window [Lo, Hi) of post-warmup
// super-passes (detector spec §10.2).
type Plateau struct{ Lo, Hi int }

// gateConfig is what admissibility needs from the parameters (§10.1).
type gateConfig struct {
	gate        TrendGate // trend algorithm
	covMax      float64   // loosest CoV bound
	relDriftMin float64   // effect-size floor
	minN        int       // minimum points
	alpha       float64
	// shiftSDs > 0 turns on the noise-relative step test (hasNoiseStep,
	// steadysweep only): a step of more than shiftSDs super-pass noise SDs
	// (and shiftMinRel) ends a plateau.
	shiftSDs float64
}

// windowAdmissible reports whether post[lo:hi] is admissible (§10.1): for
// each gated metric the per-super-pass values over the window, without
// skipping (any super-pass lacking the metric fails), number at least minN,
// are not trending (gate verdict steady, or |RelDrift| < relDriftMin) and
// have CoV ≤ covMax. buf is scratch space.
func windowAdmissible(pct []*spPercentiles, lo, hi int, g gateConfig, buf, tmp []float64) bool {
	for _, m := range gatedMetrics() {
		traj := strictTrajectory(pct[lo:hi], m, buf)
		if traj == nil || len(traj) < g.minN {
			return false
		}
		// The checks are pure, so the cheap CoV check goes first.
		if covExceeds(traj, g.covMax) {
			return false
		}
		// A trend breaks the window only with |rel_drift| ≥ the floor, so
		// the (costlier) gate verdict is needed only then.
		if math.Abs(relDrift(traj, tmp)) >= g.relDriftMin &&
			verdict(g.gate, traj, g.minN, g.alpha, tmp) != stats.VerdictSteady {
			return false
		}
	}
	return true
}

// growPlateaus is the grow-from-left segmentation of n super-passes
// (§10.2) under an admissibility test:
//
//	start = 0
//	while start ≤ n − minN:
//	    grow end = start+minN, start+minN+1, … while [start, end) is admissible
//	    if some end was admissible: record [start, best), start = best
//	    else: start++
//
// Growth stops at the first inadmissible end. Plateaus are disjoint and at
// least minN long. admissible is called with increasing ends for one
// start before the start moves on, so it may keep state per start. The
// scan ends early (with the plateaus so far) when stop fails.
func growPlateaus(n, minN int, admissible func(lo, hi int) bool, stop *stopper) []Plateau {
	var out []Plateau
	minLen := max(minN, 1)
	for start := 0; start <= n-minLen; {
		if stop.failed() {
			return out
		}
		best := -1
		for end := start + minLen; end <= n && admissible(start, end); end++ {
			// One start can grow over the whole series, each step O(window)
			// (tens of minutes at --superpass-size 1): look at the hook on
			// the way too.
			if (end-start)&63 == 0 && stop.failed() {
				return out
			}
			best = end
		}
		if best < 0 {
			start++
			continue
		}
		out = append(out, Plateau{start, best})
		start = best
	}
	return out
}

// segmentPlateaus returns the plateaus of the post-warmup series by the
// reference's rule (growPlateaus under windowAdmissible). It decides
// exactly as windowAdmissible, keeping each gated metric's window values
// sorted as the window grows so the medians of the relative drifts cost
// no selection.
func segmentPlateaus(pct []*spPercentiles, g gateConfig, v *memoView, stop *stopper) []Plateau {
	rg := referenceGate{pct: pct, g: g, lo: -1, tmp: make([]float64, 0, len(pct)), memo: v}
	return growPlateaus(len(pct), g.minN, rg.admissible, stop)
}

// referenceGate is windowAdmissible over a window that grows from one
// start: the gated metrics' values so far (growingSeries).
type referenceGate struct {
	pct    []*spPercentiles
	g      gateConfig
	lo, hi int  // the window [lo, hi) pushed so far
	broken bool // a super-pass of the window lacks a gated metric
	win    [2]growingSeries
	tmp    []float64
	memo   *memoView
}

// grow brings the gated metrics' windows to [lo, hi), starting them
// afresh when lo moved or hi went back; it reports false when a
// super-pass of the window lacks one (every longer window then fails).
func grow(pct []*spPercentiles, win *[2]growingSeries, curLo, curHi *int, broken *bool, lo, hi int) bool {
	if lo != *curLo || hi < *curHi {
		*curLo, *curHi, *broken = lo, lo, false
		for i := range win {
			if cap(win[i].vals) == 0 {
				win[i].reserve(len(pct) - lo) // the longest window from here
			}
			win[i].reset()
		}
	}
	for ; *curHi < hi && !*broken; *curHi++ {
		for i, m := range gatedMetrics() {
			if !pct[*curHi].ok[m] {
				*broken = true
				break
			}
			win[i].push(pct[*curHi].v[m])
		}
	}
	return !*broken
}

func (rg *referenceGate) admissible(lo, hi int) bool {
	if !grow(rg.pct, &rg.win, &rg.lo, &rg.hi, &rg.broken, lo, hi) {
		return false
	}
	gated := gatedMetrics()
	for i, m := range gated {
		verdict := func(traj []float64) stats.Verdict {
			if rg.g.gate == TrendSlopeVsScatter {
				return verdict(rg.g.gate, traj, rg.g.minN, rg.g.alpha, rg.tmp) // its shortcut beats a memo
			}
			return rg.memo.trend(rg.g.gate, m, lo, hi, traj, rg.g.minN, rg.g.alpha)
		}
		w := &rg.win[i]
		// windowAdmissible's test of one gated metric.
		if len(w.vals) < rg.g.minN || w.covVersus(rg.g.covMax) > 0 {
			return false
		}
		if w.driftAtLeast(rg.g.relDriftMin, rg.tmp) && verdict(w.vals) != stats.VerdictSteady {
			return false
		}
	}
	return true
}

// ensembleGate is steadysweep's admissibility (windowAdmissible with the
// CoV ensemble and the step guard) over a window that grows from one
// start: every gating metric has a value in each super-pass (at least
// minN), at least one ensemble setting bounds the CoV of every gating
// metric, tpot_p50 has no step (hasStep, hasNoiseStep), and no gating
// metric trends (gate verdict not steady with |RelDrift| ≥ the
// effect-size floor). The checks are pure, so the cheap ones run first.
type ensembleGate struct {
	pct    []*spPercentiles
	g      gateConfig
	ens    []EnsembleSetting
	memo   *memoView
	lo, hi int
	broken bool
	win    [2]growingSeries
	si     [2]stepIndex // the step scans' bounds of win
	tmp    []float64
}

func (eg *ensembleGate) admissible(lo, hi int) bool {
	if !grow(eg.pct, &eg.win, &eg.lo, &eg.hi, &eg.broken, lo, hi) {
		return false
	}
	g, w50, w90 := eg.g, &eg.win[0], &eg.win[1]
	if len(w50.vals) < g.minN {
		return false
	}
	certified := false
	for _, e := range eg.ens {
		if w50.covVersus(e.P50) < 0 && w90.covVersus(e.P90) < 0 {
			certified = true
			break
		}
	}
	if !certified {
		return false
	}
	gated := gatedMetrics()
	for k := range eg.win {
		w := &eg.win[k]
		if gated[k] == mTPOTP50 && (stepInGrowing(w, &eg.si[k], lo, len(eg.pct)-lo, g.relDriftMin) ||
			noiseStepInGrowing(w, &eg.si[k], lo, len(eg.pct)-lo, g.shiftSDs, shiftMinRel, g.minN)) {
			return false
		}
		if w.driftAtLeast(g.relDriftMin, eg.tmp) &&
			eg.memo.trend(g.gate, gated[k], lo, hi, w.vals, g.minN, g.alpha) != stats.VerdictSteady {
			return false
		}
	}
	return true
}

// ensemblePlateausFrom segments the post-warmup series pct[from:] (from 0,
// or where a settling curve has settled) grow-from-left (§10.2) under
// steadysweep's admissibility (ensembleGate), the plateaus indexed into
// pct.
func ensemblePlateausFrom(pct []*spPercentiles, from int, g gateConfig, ens []EnsembleSetting, v *memoView,
	stop *stopper) []Plateau {
	eg := ensembleGate{pct: pct, g: g, ens: ens, memo: v, lo: -1, tmp: make([]float64, 0, len(pct))}
	out := growPlateaus(len(pct)-from, g.minN, func(lo, hi int) bool {
		return eg.admissible(from+lo, from+hi)
	}, stop)
	for i := range out {
		out[i].Lo, out[i].Hi = out[i].Lo+from, out[i].Hi+from
	}
	return out
}

// hasStep reports a level shift inside xs (deviation D7): some split into
// a head of at least two points and a tail of at least one whose means
// differ by more than band relative to the head (2·band for a one-point
// tail, so a lone noisy super-pass does not end a plateau), and by more
// than three residual standard deviations of the two-level fit. A window
// growing across a late step breaks as soon as the first super-pass of the
// new level joins it, even when its CoV and the (step-blind, spec §18.7)
// rank trend test still pass.
func hasStep(xs []float64, band float64) bool {
	s1, s2 := prefixSums(xs)
	return stepInPrefix(s1, s2, band)
}

// prefixSums returns s1[i] = Σ xs[:i] and s2[i] = Σ xs[:i]², summed left
// to right.
func prefixSums(xs []float64) (s1, s2 []float64) {
	s1, s2 = make([]float64, len(xs)+1), make([]float64, len(xs)+1)
	for i, x := range xs {
		s1[i+1], s2[i+1] = s1[i]+x, s2[i]+x*x
	}
	return s1, s2
}

// stepInPrefix is hasStep of the series whose prefix sums are s1, s2.
func stepInPrefix(s1, s2 []float64, band float64) bool {
	n := len(s1) - 1
	if n < 4 {
		return false
	}
	for k := 2; k <= n-1; k++ {
		if stepAt(s1, s2, k, band) {
			return true
		}
	}
	return false
}

// stepInGrowing is stepInPrefix of the growing window w (starting at lo,
// at most capHint long), trying only the splits si cannot rule out: the
// same boolean.
func stepInGrowing(w *growingSeries, si *stepIndex, lo, capHint int, band float64) bool {
	n := len(w.s1) - 1
	if n < 4 {
		return false
	}
	return si.anySplit(w, lo, capHint, 2, n-1, band, 3, func(k int) bool { return stepAt(w.s1, w.s2, k, band) })
}

// stepAt is hasStep's test of the split k of the series whose prefix sums
// are s1, s2: head and tail means apart by more than band (2·band for a
// one-point tail) and by more than three residual SDs.
func stepAt(s1, s2 []float64, k int, band float64) bool {
	n := len(s1) - 1
	m1, m2 := s1[k]/float64(k), (s1[n]-s1[k])/float64(n-k)
	b := band
	if k == n-1 {
		b = 2 * band
	}
	if !(m1 > 0) || math.Abs(m2-m1)/m1 <= b {
		return false
	}
	sd := math.Sqrt((sseOfPrefix(s1, s2, 0, k) + sseOfPrefix(s1, s2, k, n)) / float64(n-2))
	return math.Abs(m2-m1) > 3*sd
}

// sseOfPrefix is Σ(x − x̄)² of the values [i, j) of the series whose
// prefix sums are s1, s2 (0 if rounding makes it negative).
func sseOfPrefix(s1, s2 []float64, i, j int) float64 {
	d := s1[j] - s1[i]
	return math.Max(0, (s2[j]-s2[i])-d*d/float64(j-i))
}

// hasNoiseStep reports a level step inside xs judged against the series'
// own noise (issue 29), for steps below the fixed band of hasStep: some
// split into a head of at least minHead points (a level that is itself a
// plateau's length: a shorter head is a settling transient, the head
// test's business) and a tail of at least two
// whose means m₁, m₂ differ by more than shiftMinRel·m₁ and by more than
// sds·σ, σ = √((SSE_head + SSE_tail)/(n − 2)) the residual SD of the
// two-level fit (the super-pass noise once the step is taken out), with
// every tail point beyond the midpoint of the two levels (a lone spike or
// a noisy point among level ones is no step). On independent normal
// noise a false step needs a two-point tail mean beyond sds·σ of the
// head's, |z| > sds/√(1/2 + 1/k) > 4 for sds = 3 and a head of k ≥ 4
// points (with the relative floor on top). Off when sds ≤ 0.
func hasNoiseStep(xs []float64, sds, minRel float64, minHead int) bool {
	if len(xs) < max(minHead, 2)+2 || !(sds > 0) {
		return false
	}
	s1, s2 := prefixSums(xs)
	return noiseStepInPrefix(xs, s1, s2, sds, minRel, minHead)
}

// noiseStepInPrefix is hasNoiseStep of xs, whose prefix sums are s1, s2.
func noiseStepInPrefix(xs, s1, s2 []float64, sds, minRel float64, minHead int) bool {
	n := len(xs)
	minHead = max(minHead, 2)
	if n < minHead+2 || !(sds > 0) {
		return false
	}
	for k := minHead; k <= n-2; k++ {
		if noiseStepAt(xs, s1, s2, k, sds, minRel) {
			return true
		}
	}
	return false
}

// noiseStepInGrowing is noiseStepInPrefix of the growing window w
// (starting at lo, at most capHint long), trying only the splits si
// cannot rule out: the same boolean.
func noiseStepInGrowing(w *growingSeries, si *stepIndex, lo, capHint int, sds, minRel float64, minHead int) bool {
	n := len(w.vals)
	minHead = max(minHead, 2)
	if n < minHead+2 || !(sds > 0) {
		return false
	}
	return si.anySplit(w, lo, capHint, minHead, n-2, minRel, sds, func(k int) bool {
		return noiseStepAt(w.vals, w.s1, w.s2, k, sds, minRel)
	})
}

// noiseStepAt is hasNoiseStep's test of the split k of xs (prefix sums
// s1, s2).
func noiseStepAt(xs, s1, s2 []float64, k int, sds, minRel float64) bool {
	n := len(xs)
	m1, m2 := s1[k]/float64(k), (s1[n]-s1[k])/float64(n-k)
	d := m2 - m1
	if !(m1 > 0) || math.Abs(d)/m1 <= minRel {
		return false
	}
	if math.Abs(d) <= sds*math.Sqrt((sseOfPrefix(s1, s2, 0, k)+sseOfPrefix(s1, s2, k, n))/float64(n-2)) {
		return false
	}
	for _, x := range xs[k:] {
		if (x-m1)*math.Copysign(1, d) <= math.Abs(d)/2 {
			return false
		}
	}
	return true
}

// refineBoundaries moves the boundary between adjacent plateaus back to
// the least-squares two-level split of their joint tpot_p50 span when the
// two plateaus so split differ in level (by more than band, or by
// noiseShift; issue 29): growing from the left, a plateau takes in the
// first super-passes of the next level until enough of them make a step
// (hasStep and hasNoiseStep need a tail of two), so its end lies up to two
// super-passes past the step, and those raise its noise. The split is
// looked for only inside the first plateau, leaving it minN super-passes.
func refineBoundaries(pct []*spPercentiles, plateaus []Plateau, band, sds float64, minN int) {
	for i := 0; i+1 < len(plateaus); i++ {
		a, b := &plateaus[i], &plateaus[i+1]
		if a.Hi != b.Lo {
			continue
		}
		ys := append(trajectory(pct[a.Lo:a.Hi], mTPOTP50), trajectory(pct[b.Lo:b.Hi], mTPOTP50)...)
		if len(ys) != b.Hi-a.Lo {
			continue // plateaus have every value; be safe
		}
		n := len(ys)
		s1, s2 := make([]float64, n+1), make([]float64, n+1)
		for i, y := range ys {
			s1[i+1], s2[i+1] = s1[i]+y, s2[i]+y*y
		}
		sseOf := func(i, j int) float64 { d := s1[j] - s1[i]; return math.Max(0, (s2[j]-s2[i])-d*d/float64(j-i)) }
		split := func(k int) float64 { return sseOf(0, k-a.Lo) + sseOf(k-a.Lo, n) }
		best, bestSSE := a.Hi, split(a.Hi)
		for k := a.Lo + minN; k < a.Hi; k++ {
			if e := split(k); e < bestSSE {
				best, bestSSE = k, e
			}
		}
		a2, b2 := Plateau{a.Lo, best}, Plateau{best, b.Hi}
		ma, mb := stats.Mean(ys[:best-a.Lo]), stats.Mean(ys[best-a.Lo:])
		if ma > 0 && (math.Abs(mb-ma)/ma > band || noiseShift(pct, a2, b2, sds, shiftMinRel)) {
			*a, *b = a2, b2
		}
	}
}

// shiftMinRel is the smallest relative TPOT step the noise-relative tests
// flag (hasNoiseStep, noiseShift): on a very smooth series a step of a
// fraction of a percent can be many SDs, yet it is no level shift anyone
// acts on.
const shiftMinRel = 0.01
