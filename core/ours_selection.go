package core

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Selection is the per-metric state of the reported window and the
// guardrails of its selection (design §5.5; detector spec §17.6–§17.7).
// Super-pass indices are absolute once in Ours (post-warmup relative
// inside selectSteady).
type Selection struct {
	// States is each tracked metric's state over the reported window (over
	// the whole post-warmup series when there is none): Plateau, Drifting
	// Up, Drifting Down, or "" when the metric has fewer than MinTrendN
	// points (no data is never a plateau).
	States [numMetrics]string
	// Ensemble is the CoV ensemble; Certifying lists the indices of the
	// settings that certify the reported window for every gating metric.
	Ensemble   []EnsembleSetting
	Certifying []int
	// Drift is the drift-versus-staircase test over the plateaus (nil with
	// fewer than two plateaus).
	Drift *DriftTest
	// MSERStart is the post-relative start minimising the standard error of
	// the per-super-pass TPOT means among the admissible trims [lo', hi) of
	// the reported window (−1 without a window); MSERAgrees reports that it
	// is the reported start.
	MSERStart  int
	MSERAgrees bool
	// MSERApplied reports that the reported window was trimmed to
	// MSERStart (the trim at least halved the standard error).
	MSERApplied bool
	// Burst reports a reported window issued within one median request
	// latency (isBurst): never a steady state.
	Burst bool
	// OLSP and NeweyWestP are the slope p-values of tpot_p50 over the
	// reported window; Corroborated reports that both agree with the gate
	// (p ≥ Alpha ⇔ tpot_p50 is Plateau). NaN without a window.
	OLSP, NeweyWestP float64
	Corroborated     bool
	// Concordance is the agreement of the forward CoV stopping rules of the
	// ensemble, max(0, 1 − (max end − min end)/max(1, n)), 0 if fewer than
	// two converge.
	Concordance float64
	// ReferenceWarmup is the reference rule's crop of the same series (our
	// warmup may differ: deviations D1, D2).
	ReferenceWarmup int
}

// GatingStates returns the states of tpot_p50 and tpot_p90.
func (s Selection) GatingStates() [2]string {
	return [2]string{s.States[mTPOTP50], s.States[mTPOTP90]}
}

// EnsembleSetting is one CoV setting: bounds for the p50 and p90 gating
// metrics (the bound loosens toward the tail).
type EnsembleSetting struct{ P50, P90 float64 }

// ensembleTailMult is how much looser the p90 bound of a setting is than
// its p50 bound.
const ensembleTailMult = 1.5

// ensembleOf returns one setting per distinct bound b: {b, 1.5·b}.
func ensembleOf(bounds []float64) []EnsembleSetting {
	out := []EnsembleSetting{}
	for _, b := range distinctBounds(bounds) {
		out = append(out, EnsembleSetting{b, b * ensembleTailMult})
	}
	return out
}

// DriftTest compares, over the super-passes from the first plateau's start
// to the last one's end, a single line against the best fit by as many
// levels as there are plateaus (BIC = n·ln(RSS/n) + q·ln n, q = 2 for the
// line, 2k − 1 for k levels). Drift is true when
// the line wins and the gate finds a trend of at least the effect-size
// floor over [Lo, Hi): the plateaus are a drift chopped into pieces
// (deviation D5), not a staircase.
type DriftTest struct {
	Lo, Hi           int
	BICLine, BICStep float64
	Drift            bool
	Up               bool
}

// OursAnomaly is a confirmed level shift: a later plateau (or the
// super-passes after the last plateau) whose pooled TPOT mean differs from
// the first plateau's by more than LevelShiftBand, corroborated by Pettitt
// on the per-super-pass TPOT means of the non-empty super-passes.
type OursAnomaly struct {
	Detected bool
	// ChangePointSP is the first super-pass of the new level: the split of
	// the two-level least-squares fit across the boundary (−1 when none).
	ChangePointSP int
	// DeltaPct is 100·(μ_later − μ_first)/μ_first.
	DeltaPct float64
	PettittP float64
	// Plateaus are every plateau [lo, hi).
	Plateaus [][2]int
}

type selResult struct {
	steady    SteadyState
	report    Selection
	anomaly   OursAnomaly
	hasWindow bool
	lo, hi    int
}

// oursWarmup is our adaptive warmup crop (deviations D1, D2): over the
// driver trajectory (super-passes with the metric), the first position j
// below the cap ⌊n·WarmupMaxFrac⌋ whose next MinTrendN values all lie
// within WarmupBand/2 of their own median is the end of the ramp (half the
// band, so the tail of an asymptotic ramp is not taken as level); without
// one, the reference rule (AutoWarmup) decides. The crop is at least one
// position and is mapped back to the super-pass holding that position, so
// empty leading super-passes are cropped too.
func oursWarmup(pct []*spPercentiles, driver int, p Params) int {
	var idx []int
	var vals []float64
	for i, pc := range pct {
		if driver >= 0 && pc.ok[driver] {
			idx = append(idx, i)
			vals = append(vals, pc.v[driver])
		}
	}
	n := len(vals)
	if n == 0 {
		return min(1, len(pct))
	}
	pos := -1
	capW := int(math.Trunc(float64(n) * p.WarmupMaxFrac))
	for j := 0; j < capW && j+p.MinTrendN <= n; j++ {
		win := vals[j : j+p.MinTrendN]
		med := stats.Median(win)
		ok := med > 0
		for _, v := range win {
			if !(math.Abs(v-med)/med <= p.WarmupBand/2) {
				ok = false
				break
			}
		}
		if ok {
			pos = j
			break
		}
	}
	if pos < 0 {
		pos = AutoWarmup(vals, p.WarmupBand, p.WarmupMaxFrac, p.MinTrendN, 1)
	}
	pos = max(pos, 1)
	if pos >= n {
		return len(pct)
	}
	return idx[pos]
}

// oursAdmissible is windowAdmissible with the CoV ensemble and the step
// guard: every gating metric has a value in each super-pass (at least
// minN), at least one ensemble setting bounds the CoV of every gating
// metric, tpot_p50 has no step (hasStep), and no gating metric trends
// (gate verdict not steady with |RelDrift| ≥ the effect-size floor). The
// checks are pure, so the cheap ones run first.
func oursAdmissible(pct []*spPercentiles, lo, hi int, g gateConfig, ens []EnsembleSetting, buf []float64) bool {
	var cov [2]float64
	for k, m := range gatedMetrics {
		traj := strictTrajectory(pct[lo:hi], m, buf)
		if traj == nil || len(traj) < g.minN {
			return false
		}
		cov[k] = stats.CoV(traj)
	}
	if !anyCertifies(cov, ens) {
		return false
	}
	for _, m := range gatedMetrics {
		traj := strictTrajectory(pct[lo:hi], m, buf)
		if m == mTPOTP50 && hasStep(traj, g.relDriftMin) {
			return false
		}
		if math.Abs(stats.RelDrift(traj)) >= g.relDriftMin &&
			trendVerdict(g.gate, traj, g.minN, g.alpha) != VerdictSteady {
			return false
		}
	}
	return true
}

// anyCertifies reports whether some ensemble setting bounds both gating
// CoVs.
func anyCertifies(cov [2]float64, ens []EnsembleSetting) bool {
	for _, e := range ens {
		if cov[0] <= e.P50 && cov[1] <= e.P90 {
			return true
		}
	}
	return false
}

// certifying lists the ensemble settings bounding both gating CoVs.
func certifying(cov [2]float64, ens []EnsembleSetting) []int {
	var out []int
	for i, e := range ens {
		if cov[0] <= e.P50 && cov[1] <= e.P90 {
			out = append(out, i)
		}
	}
	return out
}

// hasStep reports a level shift inside xs (deviation D7): some split into
// a head of at least two points and a tail of at least one whose means
// differ by more than band relative to the head (2·band for a one-point
// tail, so a lone noisy super-pass does not end a plateau), and by more
// than three residual standard deviations of the two-level fit. A window growing
// across a late step breaks as soon as the first super-pass of the new
// level joins it, even when its CoV and the (step-blind, spec §18.7) rank
// trend test still pass.
func hasStep(xs []float64, band float64) bool {
	n := len(xs)
	if n < 4 {
		return false
	}
	s1 := make([]float64, n+1)
	s2 := make([]float64, n+1)
	for i, x := range xs {
		s1[i+1], s2[i+1] = s1[i]+x, s2[i]+x*x
	}
	sseOf := func(i, j int) float64 {
		d := s1[j] - s1[i]
		return math.Max(0, (s2[j]-s2[i])-d*d/float64(j-i))
	}
	for k := 2; k <= n-1; k++ {
		m1, m2 := s1[k]/float64(k), (s1[n]-s1[k])/float64(n-k)
		b := band
		if k == n-1 {
			b = 2 * band
		}
		if !(m1 > 0) || math.Abs(m2-m1)/m1 <= b {
			continue
		}
		sd := math.Sqrt((sseOf(0, k) + sseOf(k, n)) / float64(n-2))
		if math.Abs(m2-m1) > 3*sd {
			return true
		}
	}
	return false
}

// oursPlateaus segments the post-warmup series grow-from-left (§10.2)
// under oursAdmissible.
func oursPlateaus(pct []*spPercentiles, g gateConfig, ens []EnsembleSetting) []Plateau {
	n := len(pct)
	var out []Plateau
	buf := make([]float64, 0, n)
	minLen := max(g.minN, 1)
	for start := 0; start <= n-minLen; {
		best := -1
		for end := start + minLen; end <= n; end++ {
			if !oursAdmissible(pct, start, end, g, ens, buf) {
				break
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

// selectSteady is our steady-state selection over the post-warmup series.
func selectSteady(post []SuperPass, pct []*spPercentiles, p Params, bounds []float64) selResult {
	covMax := math.Inf(-1)
	for _, b := range bounds {
		covMax = math.Max(covMax, b)
	}
	g := gateConfig{gate: p.TrendGate, covMax: covMax, relDriftMin: p.TrendRelDriftMin, minN: p.MinTrendN, alpha: p.Alpha}
	ens := ensembleOf(bounds)
	plateaus := oursPlateaus(pct, g, ens)
	res := selResult{lo: -1, hi: -1}
	res.report.Ensemble = ens
	res.report.MSERStart = -1
	res.report.OLSP, res.report.NeweyWestP = math.NaN(), math.NaN()
	res.report.Concordance = concordance(pct, p.MinTrendN)
	ss := &res.steady
	ss.Plateaus = plateaus
	res.anomaly = OursAnomaly{ChangePointSP: -1}
	for _, pl := range plateaus {
		res.anomaly.Plateaus = append(res.anomaly.Plateaus, [2]int{pl.Lo, pl.Hi})
	}
	ss.Anomaly = Anomaly{ChangePointSP: -1, Plateaus: plateaus}

	if len(plateaus) == 0 {
		ss.Reason = "no admissible steady plateau"
		ss.GlobalTrend = globalTrend(pct, 0, p.TrendGate, p.MinTrendN, p.Alpha)
		ss.DriftingUp = driftingUp(ss.GlobalTrend)
		res.report.States = statesOver(pct, 0, len(pct), p)
		return res
	}

	mc := minDurationConfig{eps: p.MinDurEps, relaxMult: p.MinDurRelaxMult, floorS: p.MinDurFloorS,
		kstarFloor: p.MinDurKstarFloor}
	if len(plateaus) >= 2 {
		dt := driftTest(pct, plateaus, g)
		res.report.Drift = &dt
		if dt.Drift {
			lo, hi := dt.Lo, dt.Hi
			short := minSteadyDuration(post[lo:hi], pct[lo:hi], mc)
			ss.Shorts = []ShortWindow{short}
			fillWindow(ss, post, lo, hi, 0, len(plateaus), 0)
			ss.ShortWindow = &short
			ss.Found = false
			dir := "down"
			if dt.Up {
				dir = "up"
			}
			ss.Reason = fmt.Sprintf("TPOT drifting %s across %d short plateaus (a line fits better than steps): "+
				"no steady state", dir, len(plateaus))
			ss.GlobalTrend = globalTrend(pct, lo, p.TrendGate, p.MinTrendN, p.Alpha)
			ss.DriftingUp = driftingUp(ss.GlobalTrend)
			res.report.States = statesOver(pct, lo, hi, p)
			res.hasWindow, res.lo, res.hi = true, lo, hi
			guardrails(&res, post, pct, p)
			return res
		}
	}

	ss.Shorts = make([]ShortWindow, len(plateaus))
	for i, pl := range plateaus {
		ss.Shorts[i] = minSteadyDuration(post[pl.Lo:pl.Hi], pct[pl.Lo:pl.Hi], mc)
	}
	report := 0
	if p.MinDuration {
		report = -1
		for i := range ss.Shorts {
			if !ss.Shorts[i].IsShort {
				report = i
				break
			}
		}
		if report < 0 {
			ss.AllShort = true
			report = 0
			for i := range ss.Shorts {
				if ss.Shorts[i].WindowDurationS > ss.Shorts[report].WindowDurationS {
					report = i
				}
			}
		}
	}
	pl := plateaus[report]
	skipped := 0
	for i := range report {
		if ss.Shorts[i].IsShort {
			skipped++
		}
	}
	fillWindow(ss, post, pl.Lo, pl.Hi, report, len(plateaus), skipped)
	short := ss.Shorts[report]
	ss.ShortWindow = &short
	ss.Found = !ss.AllShort
	if ss.AllShort {
		ss.Reason = fmt.Sprintf("all %d admissible plateau(s) too short: longest %s < %s required (%s-dominated)",
			len(plateaus), pyFixed(short.WindowDurationS, 0)+"s", pyFixed(short.MinDurationS, 0)+"s", short.Dominant)
	}
	ss.GlobalTrend = globalTrend(pct, pl.Lo, p.TrendGate, p.MinTrendN, p.Alpha)
	ss.DriftingUp = driftingUp(ss.GlobalTrend)
	res.anomaly = levelShiftOurs(post, plateaus, p.LevelShiftBand, p.Alpha)
	ss.Anomaly = Anomaly{Detected: res.anomaly.Detected, ChangePointSP: res.anomaly.ChangePointSP,
		DeltaPct: res.anomaly.DeltaPct, Plateaus: plateaus}
	if res.anomaly.Detected && report > 0 && res.anomaly.ChangePointSP <= pl.Lo {
		ss.Reason = joinReason(ss.Reason, fmt.Sprintf("reported plateau %d is %+.1f%% from the skipped first plateau",
			report, res.anomaly.DeltaPct))
	}
	lo := pl.Lo
	// MSER selection by precision (design §5.5): trim a settling head off
	// the reported plateau when that at least halves the standard error of
	// the mean and keeps the window's min-duration verdict.
	if s, full, best := mserStart(post, pl.Lo, pl.Hi, p.MinTrendN); s > pl.Lo && best <= mserKnee*full {
		trimmed := minSteadyDuration(post[s:pl.Hi], pct[s:pl.Hi], mc)
		if trimmed.IsShort == short.IsShort || !p.MinDuration {
			lo = s
			fillWindow(ss, post, s, pl.Hi, report, len(plateaus), skipped)
			ss.ShortWindow = &trimmed
			res.report.MSERApplied = true
		}
	}
	// Burst guard (deviation D13): a window issued within one median
	// request latency was in flight all at once (n_samples ≈ concurrency,
	// design §5.5): no steady state, whatever the duration gate says.
	if isBurst(post[lo:pl.Hi]) {
		res.report.Burst = true
		ss.Found = false
		ss.Reason = joinReason(ss.Reason, "issue burst: the window was issued within one median request latency "+
			"(n_samples ≈ concurrency); no steady state")
	}
	res.report.States = statesOver(pct, lo, pl.Hi, p)
	res.hasWindow, res.lo, res.hi = true, lo, pl.Hi
	guardrails(&res, post, pct, p)
	return res
}

// isBurst reports a window whose issue span is shorter than the median
// end-to-end latency of its samples: every sample was issued before a
// typical one completed, so the window never left the load ramp.
func isBurst(w []SuperPass) bool {
	lat := spanStatsOf(w, false).totals.Lat.P50
	return !math.IsNaN(lat) && float64(issueSpanNs(w)) < lat
}

// fillWindow sets the summaries, TPS and window record of post[lo:hi]
// (memoised per window, see windowSummaryOf).
func fillWindow(ss *SteadyState, post []SuperPass, lo, hi, index, nPlateaus, skipped int) {
	ws := windowSummaryOf(post[lo:hi])
	ss.TTFT, ss.TPOT = ws.ttft, ws.tpot
	tps := ws.tps
	ss.TPS = &tps
	ss.Window = &WindowInfo{SPLo: lo, SPHi: hi, NSuperPasses: hi - lo, NSamples: ws.nTTFT,
		PlateauIndex: index, NPlateaus: nPlateaus, SkippedShort: skipped}
}

// stateOf classifies a trajectory: "" below minN points, Drifting Up/Down
// when the gate finds a trend of at least the effect-size floor, else
// Plateau.
func stateOf(traj []float64, p Params) string {
	v := trendVerdict(p.TrendGate, traj, p.MinTrendN, p.Alpha)
	switch {
	case v == VerdictInsufficient:
		return ""
	case v == VerdictUp && math.Abs(stats.RelDrift(traj)) >= p.TrendRelDriftMin:
		return StateDriftingUp
	case v == VerdictDown && math.Abs(stats.RelDrift(traj)) >= p.TrendRelDriftMin:
		return StateDriftingDown
	}
	return StatePlateau
}

// statesOver returns every tracked metric's state over pct[lo:hi].
func statesOver(pct []*spPercentiles, lo, hi int, p Params) [numMetrics]string {
	var out [numMetrics]string
	if lo < 0 || hi > len(pct) || lo >= hi {
		return out
	}
	for m := range TrackedMetrics {
		out[m] = stateOf(trajectory(pct[lo:hi], m), p)
	}
	return out
}

// driftTest is the DriftTest of the gated tpot_p50 over [first plateau
// start, last plateau end): a line against the best piecewise-constant fit
// with as many levels as there are plateaus (optimal segmentation, so the
// super-passes straddling a step do not count against the steps).
func driftTest(pct []*spPercentiles, plateaus []Plateau, g gateConfig) DriftTest {
	dt := DriftTest{Lo: plateaus[0].Lo, Hi: plateaus[len(plateaus)-1].Hi}
	var xs, ys []float64
	for i := dt.Lo; i < dt.Hi; i++ {
		if pct[i].ok[mTPOTP50] {
			xs = append(xs, float64(i))
			ys = append(ys, pct[i].v[mTPOTP50])
		}
	}
	n := float64(len(ys))
	k := len(plateaus)
	if len(ys) < max(3, k) {
		dt.BICLine, dt.BICStep = math.NaN(), math.NaN()
		return dt
	}
	slope, rssLine := lineFit(xs, ys)
	rssStep := segmentSSE(ys, k)
	floor := n * math.Pow(1e-6*stats.Mean(ys), 2)
	dt.BICLine = n*math.Log((rssLine+floor)/n) + 2*math.Log(n)
	dt.BICStep = n*math.Log((rssStep+floor)/n) + float64(2*k-1)*math.Log(n)
	dt.Up = slope > 0
	traj := trajectory(pct[dt.Lo:dt.Hi], mTPOTP50)
	trend := trendVerdict(g.gate, traj, g.minN, g.alpha) != VerdictSteady &&
		math.Abs(stats.RelDrift(traj)) >= g.relDriftMin
	dt.Drift = trend && dt.BICLine < dt.BICStep
	return dt
}

// segmentSSE is the least residual sum of squares of ys split into k
// contiguous non-empty segments, each fitted by its mean (dynamic
// programming over prefix sums, O(k·n²)).
func segmentSSE(ys []float64, k int) float64 {
	n := len(ys)
	s1 := make([]float64, n+1)
	s2 := make([]float64, n+1)
	for i, y := range ys {
		s1[i+1], s2[i+1] = s1[i]+y, s2[i]+y*y
	}
	cost := func(i, j int) float64 { // SSE of ys[i:j]
		m := float64(j - i)
		d := s1[j] - s1[i]
		return math.Max(0, (s2[j]-s2[i])-d*d/m)
	}
	prev := make([]float64, n+1)
	for j := 1; j <= n; j++ {
		prev[j] = cost(0, j)
	}
	for seg := 2; seg <= k; seg++ {
		cur := make([]float64, n+1)
		for j := range cur {
			cur[j] = math.Inf(1)
		}
		for j := seg; j <= n; j++ {
			for i := seg - 1; i < j; i++ {
				if c := prev[i] + cost(i, j); c < cur[j] {
					cur[j] = c
				}
			}
		}
		prev = cur
	}
	return prev[n]
}

// lineFit is the least-squares line y = a + b·x: slope b and residual sum
// of squares (NaN slope when the xs are constant).
func lineFit(xs, ys []float64) (slope, rss float64) {
	mx, my := stats.Mean(xs), stats.Mean(ys)
	sxx, sxy := 0.0, 0.0
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	if sxx == 0 {
		return math.NaN(), math.NaN()
	}
	slope = sxy / sxx
	for i := range xs {
		e := ys[i] - (my + slope*(xs[i]-mx))
		rss += e * e
	}
	return slope, rss
}

// levelShiftOurs detects a level shift against the FIRST plateau
// (deviation D3): the first later plateau whose pooled TPOT mean differs
// by more than band, or else the super-passes after the last plateau (at
// least two, all beyond the band on the same side), confirmed by Pettitt
// on the TPOT means of the non-empty super-passes (deviation D6). The
// change point is the least-squares split between the previous plateau's
// start and the shifted segment's end (deviation D4).
func levelShiftOurs(post []SuperPass, plateaus []Plateau, band, alpha float64) OursAnomaly {
	a := OursAnomaly{ChangePointSP: -1, PettittP: math.NaN()}
	for _, pl := range plateaus {
		a.Plateaus = append(a.Plateaus, [2]int{pl.Lo, pl.Hi})
	}
	if len(plateaus) == 0 {
		return a
	}
	base := plateaus[0]
	mu := pooledTPOTMean(post[base.Lo:base.Hi])
	if mu <= 0 {
		return a
	}
	var means []float64
	for i := range post {
		if len(post[i].TPOT) > 0 {
			means = append(means, tpotMean(&post[i]))
		}
	}
	pet := stats.Pettitt(means, alpha)
	a.PettittP = pet.P
	if !pet.Significant {
		return a
	}
	for k := 1; k < len(plateaus); k++ {
		q := plateaus[k]
		rel := (pooledTPOTMean(post[q.Lo:q.Hi]) - mu) / mu
		if math.Abs(rel) > band {
			a.Detected, a.DeltaPct = true, rel*100
			a.ChangePointSP = splitPoint(post, plateaus[k-1].Lo, q.Hi)
			return a
		}
	}
	last := plateaus[len(plateaus)-1]
	tail := post[last.Hi:]
	nTail, side := 0, 0
	for i := range tail {
		if len(tail[i].TPOT) == 0 {
			continue
		}
		r := (tpotMean(&tail[i]) - mu) / mu
		s := 0
		if r > band {
			s = 1
		} else if r < -band {
			s = -1
		}
		if s == 0 || (side != 0 && s != side) {
			return a
		}
		side = s
		nTail++
	}
	if nTail >= 2 {
		rel := (pooledTPOTMean(tail) - mu) / mu
		a.Detected, a.DeltaPct = true, rel*100
		a.ChangePointSP = splitPoint(post, last.Lo, len(post))
	}
	return a
}

// splitPoint returns the index k in (lo, hi) minimising the residual sum
// of squares of a two-level fit of the per-super-pass TPOT means of
// post[lo:hi] (empty super-passes skipped): the first super-pass of the
// second level. −1 when fewer than two super-passes have TPOT.
func splitPoint(post []SuperPass, lo, hi int) int {
	var idx []int
	var ys []float64
	for i := lo; i < hi; i++ {
		if len(post[i].TPOT) > 0 {
			idx = append(idx, i)
			ys = append(ys, tpotMean(&post[i]))
		}
	}
	if len(ys) < 2 {
		return -1
	}
	best, bestRSS := -1, math.Inf(1)
	for k := 1; k < len(ys); k++ {
		r := sse(ys[:k]) + sse(ys[k:])
		if r < bestRSS {
			best, bestRSS = idx[k], r
		}
	}
	return best
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

// concordanceEnsemble is the earlier design branch's forward stopping
// rules (trailing window, CoV bound).
var concordanceEnsemble = []struct {
	w     int
	bound float64
}{{3, 0.03}, {3, 0.05}, {4, 0.05}, {5, 0.08}, {6, 0.10}, {6, 0.15}}

// concordance runs each forward rule over the post-warmup series (the
// first end e with CoV < bound for tpot_p50 and tpot_p90 over the
// trailing window [e−w, e)) and returns max(0, 1 − (max e − min e)/
// max(1, n)), 0 when fewer than two rules converge.
func concordance(pct []*spPercentiles, minN int) float64 {
	n := len(pct)
	var ends []int
	buf := make([]float64, 0, 8)
	for _, rule := range concordanceEnsemble {
		for e := rule.w; e <= n; e++ {
			ok := true
			for _, m := range gatedMetrics {
				traj := strictTrajectory(pct[e-rule.w:e], m, buf)
				if traj == nil || !(stats.CoV(traj) < rule.bound) {
					ok = false
					break
				}
			}
			if ok {
				ends = append(ends, e)
				break
			}
		}
	}
	if len(ends) < 2 {
		return 0
	}
	lo, hi := ends[0], ends[0]
	for _, e := range ends {
		lo, hi = min(lo, e), max(hi, e)
	}
	return math.Max(0, 1-float64(hi-lo)/float64(max(1, n)))
}

// mserStart is the MSER choice among the trims [s, hi) of the window
// [lo, hi) keeping at least minN super-passes: the first s minimising the
// standard error SE(s) = σ/√n of the per-super-pass TPOT means (empty
// super-passes skipped; White 1997, design §5.5 "select by precision").
// It returns s with SE(lo) and SE(s); s = lo when nothing is computable.
func mserStart(post []SuperPass, lo, hi, minN int) (s int, seFull, seBest float64) {
	var means []float64
	for i := lo; i < hi; i++ {
		if len(post[i].TPOT) > 0 {
			means = append(means, tpotMean(&post[i]))
		} else {
			means = append(means, math.NaN())
		}
	}
	s, seFull, seBest = lo, math.NaN(), math.Inf(1)
	for k := 0; k+minN <= len(means); k++ {
		var xs []float64
		for _, v := range means[k:] {
			if !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		if len(xs) < 2 {
			continue
		}
		se := stats.PStdev(xs) / math.Sqrt(float64(len(xs)))
		if k == 0 {
			seFull = se
		}
		if se < seBest {
			s, seBest = lo+k, se
		}
	}
	if math.IsInf(seBest, 1) {
		seBest = math.NaN()
	}
	return s, seFull, seBest
}

// mserKnee is how much MSER must cut the standard error for the trim to be
// applied: a genuine transient at the window's head (bias), not noise.
const mserKnee = 0.5

// guardrails fills the MSER, OLS/Newey–West corroboration and certifying
// ensemble settings of the reported window.
func guardrails(res *selResult, post []SuperPass, pct []*spPercentiles, p Params) {
	lo, hi := res.lo, res.hi
	rep := &res.report
	var cov [2]float64
	for k, m := range gatedMetrics {
		cov[k] = stats.CoV(trajectory(pct[lo:hi], m))
	}
	rep.Certifying = certifying(cov, rep.Ensemble)
	rep.MSERStart, _, _ = mserStart(post, lo, hi, p.MinTrendN)
	rep.MSERAgrees = rep.MSERStart == lo
	traj := trajectory(pct[lo:hi], mTPOTP50)
	if len(traj) >= 3 {
		rep.OLSP = stats.OLS(traj).P
		rep.NeweyWestP = stats.NeweyWest(traj, -1).P
		plateau := rep.States[mTPOTP50] == StatePlateau
		agree := func(pv float64) bool { return math.IsNaN(pv) || (pv >= p.Alpha) == plateau }
		rep.Corroborated = agree(rep.OLSP) && agree(rep.NeweyWestP)
	}
}
