package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Anomaly is the level-shift record of an analysis (detector spec §10.5;
// deviations D3, D4, D6). Indices are post-warmup relative.
type Anomaly struct {
	Detected bool
	// ChangePointSP is the first super-pass of the new level (−1, JSON
	// null, when nothing is detected): Pettitt's change point under the
	// reference, the least-squares split under steadysweep.
	ChangePointSP int
	// DeltaPct is the signed TPOT change of the shifted level against the
	// base plateau, in percent (0 when nothing is detected).
	DeltaPct float64
	// Pettitt is the test on the per-super-pass TPOT means, nil when it was
	// not run: under the reference over every post-warmup super-pass (0 for
	// one without TPOT), so its ChangePoint is a super-pass; under
	// steadysweep over the super-passes with TPOT only.
	Pettitt *stats.PettittResult
	// Plateaus are all plateaus.
	Plateaus []Plateau
	// TailSuperPasses and TailDurationS are the length of a short-tail
	// shift (steadysweep, deviation D15): the full super-passes at the new
	// level at the run's end and their issue span in seconds; 0 for any
	// other shift.
	TailSuperPasses int
	TailDurationS   float64
}

// pooledTPOTMean is the compensated mean of the pooled TPOT of w in
// super-pass order, 0 if empty.
func pooledTPOTMean(w []SuperPass) float64 {
	var s stats.Summer // the pooled list's sum, without pooling it
	n := 0
	for i := range w {
		s.Add(w[i].TPOT)
		n += len(w[i].TPOT)
	}
	if n == 0 {
		return 0
	}
	return s.Sum() / float64(n)
}

// referenceLevelShift flags a staircase after the reported plateau base
// (§10.5): with μ_R the pooled TPOT mean of plateau base (> 0 required) and
// the Pettitt test on the per-super-pass TPOT means of all of post (0 for a
// super-pass without TPOT), the first later plateau with
// |μ − μ_R|/μ_R > band while Pettitt is significant sets Detected,
// ChangePointSP = Pettitt's change point and DeltaPct = 100·rel.
func referenceLevelShift(post []SuperPass, pct []*spPercentiles, plateaus []Plateau, base int, band, alpha float64,
	v *memoView) Anomaly {
	a := Anomaly{ChangePointSP: -1, Plateaus: plateaus}
	if len(plateaus) <= base+1 {
		return a
	}
	pr := plateaus[base]
	mu := v.pooledTPOTMean(post, pr.Lo, pr.Hi)
	if mu <= 0 {
		return a
	}
	means := make([]float64, len(pct))
	for i, d := range pct {
		means[i] = d.tpotMean
	}
	pet := stats.Pettitt(means, alpha)
	a.Pettitt = &pet
	for _, p := range plateaus[base+1:] {
		rel := (v.pooledTPOTMean(post, p.Lo, p.Hi) - mu) / mu
		if math.Abs(rel) > band && pet.Significant {
			a.Detected = true
			a.ChangePointSP = pet.ChangePoint
			a.DeltaPct = rel * 100.0
			break
		}
	}
	return a
}

// firstPlateauShift is steadysweep's level shift, against the FIRST
// plateau (deviation D3): the first later plateau whose pooled TPOT mean
// differs by more than band or, below the band, by more than sds times the
// super-pass noise (noiseShift, issue 29), or else the super-passes after the last
// plateau (at least two, all beyond the band on the same side), confirmed
// by Pettitt on the TPOT means of the non-empty super-passes (deviation
// D6). The change point is the least-squares split between the previous
// plateau's start and the shifted segment's end (deviation D4).
func firstPlateauShift(post []SuperPass, pct []*spPercentiles, plateaus []Plateau, band, sds, alpha float64,
	v *memoView) Anomaly {
	a := Anomaly{ChangePointSP: -1, Plateaus: plateaus}
	if len(plateaus) == 0 {
		return a
	}
	base := plateaus[0]
	mu := v.pooledTPOTMean(post, base.Lo, base.Hi)
	if mu <= 0 {
		return a
	}
	var means []float64
	for _, pc := range pct {
		if pc.ok[mTPOTP50] {
			means = append(means, pc.tpotMean)
		}
	}
	pet := stats.Pettitt(means, alpha)
	a.Pettitt = &pet
	if !pet.Significant {
		return a
	}
	for k := 1; k < len(plateaus); k++ {
		q := plateaus[k]
		rel := (v.pooledTPOTMean(post, q.Lo, q.Hi) - mu) / mu
		if math.Abs(rel) > band || noiseShift(pct, base, q, sds, shiftMinRel) {
			a.Detected, a.DeltaPct = true, rel*100
			a.ChangePointSP = splitPoint(pct, plateaus[k-1].Lo, q.Hi)
			return a
		}
	}
	last := plateaus[len(plateaus)-1]
	nTail, side := 0, 0
	for _, pc := range pct[last.Hi:] {
		if !pc.ok[mTPOTP50] {
			continue
		}
		s := bandSide(pc.tpotMean, mu, band)
		if s == 0 || (side != 0 && s != side) {
			return a
		}
		side = s
		nTail++
	}
	if nTail >= 2 {
		rel := (v.pooledTPOTMean(post, last.Hi, len(post)) - mu) / mu
		a.Detected, a.DeltaPct = true, rel*100
		a.ChangePointSP = splitPoint(pct, last.Lo, len(post))
	}
	return a
}

// noiseShift reports a level shift between plateaus a and b judged against
// their own noise (issue 29): with m_a, m_b the means of their
// per-super-pass TPOT p50s and σ their pooled SD about those means,
//
//	|m_b − m_a| > minRel·m_a  and  |m_b − m_a| > sds·σ
//
// Both are plateaus (each passed the admissibility tests, at least
// MinTrendN super-passes), so on steady noise the difference of their
// means has SD ≤ σ/√2: a false shift needs |z| > 4.2 for sds = 3. Off when
// sds ≤ 0.
func noiseShift(pct []*spPercentiles, a, b Plateau, sds, minRel float64) bool {
	if !(sds > 0) {
		return false
	}
	xa, xb := trajectory(pct[a.Lo:a.Hi], mTPOTP50), trajectory(pct[b.Lo:b.Hi], mTPOTP50)
	if len(xa)+len(xb) < 3 {
		return false
	}
	ma, mb := stats.Mean(xa), stats.Mean(xb)
	if !(ma > 0) || !(math.Abs(mb-ma) > minRel*ma) {
		return false
	}
	sd := math.Sqrt((sse(xa) + sse(xb)) / float64(len(xa)+len(xb)-2))
	return math.Abs(mb-ma) > sds*sd
}

// tailShift is steadysweep's short-tail shift (deviation D15), for runs
// where firstPlateauShift finds none: a shift in the last few full
// super-passes never becomes a plateau (it is shorter than MinTrendN), yet
// it is a real shift. With B = [base.Lo, h) the reported plateau (h =
// base.Hi at first) and μ the mean of its per-super-pass TPOT p50s:
//
//  1. T = the longest suffix of the post-warmup series, starting at or
//     after base.Lo + minN, whose p50s all lie beyond ±band of B's median
//     on one side (the median: B may have absorbed shifted super-passes).
//  2. If T starts inside B (B's growth absorbed the first shifted
//     super-pass: hasStep needs 2·band for a one-point tail, and a small
//     step moves a two-point tail's mean less than band), B ends where T
//     starts and B is re-estimated; at most three rounds.
//  3. |T| ≥ minTail. A first super-pass of T (|T| ≥ 3) more than band·μ from
//     T's median is the transition, partly at each level: it is left out of
//     T's level and of the SD.
//  4. rel = mean(T)/μ − 1 must exceed band in size, and |mean(T) − μ| must
//     exceed sds·σ, σ the larger of the two-level residual SD and
//     stats.SuccessiveDiffSD of B (its own super-pass-to-super-pass noise;
//     the differences across the step and the transition would inflate it).
//  5. Over [base.Lo, end) 2–3 levels, the first of at least minN points
//     (the plateau), must fit better (BIC) than a line: else the tail is
//     the end of a drift.
//
// Per-super-pass p50s, not means: requests in flight at a step decode at
// the new level, which moves the last plateau super-pass's mean but hardly
// its median. Pettitt is not required (its K has no power for a change in
// the last two or three points). The change point is splitPoint over
// [base.Lo, end) (D4). It returns the anomaly (DeltaPct = 100·rel, whose
// sign is the direction; TailSuperPasses = |T|) and B's end, h.
func tailShift(post []SuperPass, pct []*spPercentiles, base Plateau, band float64, minN, minTail int, sds float64) (
	an Anomaly, hi int, ok bool) {
	an = Anomaly{ChangePointSP: -1}
	level := func(lo, hi int) []float64 { return trajectory(pct[lo:hi], mTPOTP50) }
	end := len(pct)
	hi, start := base.Hi, end
	var mu float64
	for range 3 {
		b := level(base.Lo, hi)
		mu = stats.Mean(b)
		if !(mu > 0) {
			return an, base.Hi, false
		}
		start = shiftedSuffix(pct, base.Lo+minN, stats.Median(b), band)
		if start >= hi || start == end {
			break
		}
		hi = start
	}
	if end-start < max(minTail, 1) {
		return an, base.Hi, false
	}
	hi = min(hi, start)
	bm, tm := level(base.Lo, hi), level(start, end)
	if len(tm) >= 3 && math.Abs(tm[0]-stats.Median(tm)) > band*mu {
		tm = tm[1:] // the transition
	}
	muT := stats.Mean(tm)
	rel := (muT - mu) / mu
	nRes := len(bm) + len(tm) - 2
	if nRes < 1 || !(math.Abs(rel) > band) {
		return an, base.Hi, false
	}
	sd := math.Max(math.Sqrt((sse(bm)+sse(tm))/float64(nRes)), stats.SuccessiveDiffSD(bm))
	if !(math.Abs(muT-mu) > sds*sd) {
		return an, base.Hi, false
	}
	span := level(base.Lo, end)
	xs, span := stepFitPoints(indexSeries(len(span)), span)
	_, rssLine := lineFit(xs, span)
	if !(bestStepBIC(span, 3, minN, nil) < bic(rssLine, len(span), 2, stats.Mean(span))) {
		return an, base.Hi, false
	}
	an.Detected, an.DeltaPct = true, 100*rel
	an.ChangePointSP = splitPoint(pct, base.Lo, end)
	an.TailSuperPasses = end - start
	an.TailDurationS = float64(issueSpanNs(post[start:end])) / 1e9
	return an, hi, true
}

// shiftedSuffix is the start of the longest suffix of pct, starting at or
// after from, whose TPOT p50s all lie beyond ±band of mu on the same side
// (len(pct) when there is none; a super-pass without TPOT ends it).
func shiftedSuffix(pct []*spPercentiles, from int, mu, band float64) int {
	start, side := len(pct), 0
	for i := len(pct) - 1; i >= from; i-- {
		if !pct[i].ok[mTPOTP50] {
			break
		}
		s := bandSide(pct[i].v[mTPOTP50], mu, band)
		if s == 0 || (side != 0 && s != side) {
			break
		}
		side, start = s, i
	}
	return start
}

// sse is Σ(x − x̄)².
func sse(xs []float64) float64 {
	mu := stats.Mean(xs)
	s := 0.0
	for _, x := range xs {
		s += (x - mu) * (x - mu)
	}
	return s
}

// globalTrend returns the gate's verdict per watched metric (ttft_p50,
// ttft_p90, tpot_p50, tpot_p90) on its trajectory over post[from:] (empty
// super-passes skipped), insufficient below minN points (§10.6).
func globalTrend(pct []*spPercentiles, from int, gate TrendGate, minN int, alpha float64, v *memoView) [4]stats.Verdict {
	var out [4]stats.Verdict
	for i, m := range watchedMetrics() {
		out[i] = v.trend(gate, m, from, len(pct), trajectory(pct[from:], m), minN, alpha)
	}
	return out
}

// bandSide is the side of the level mu that v lies on beyond the relative
// band: +1 above mu·(1+band), −1 below mu·(1−band), 0 inside (strict).
func bandSide(v, mu, band float64) int {
	switch r := (v - mu) / mu; {
	case r > band:
		return 1
	case r < -band:
		return -1
	}
	return 0
}
