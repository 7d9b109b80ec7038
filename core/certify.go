package core

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Per-metric certification (issue 28). The window is chosen on TPOT (the
// gate, design §5.5); a flat TPOT does not make the other reported numbers
// steady. A prefix cache that warms up over the run cuts prefill work, so
// TTFT and latency fall by tens of percent per 10 minutes while TPOT stays
// flat; an overloaded server's queue grows, so TTFT climbs all run. Each
// reported metric family is therefore certified on its own, over the
// window and over the span from the window to the run's end: a family
// whose per-super-pass series trends there is reported null with its
// reason, the others stay certified. The reference has no such stage.

// Metric families certified one by one, in report order.
const (
	FamilyTTFT       = "ttft"
	FamilyTPOT       = "tpot"
	FamilyLatency    = "latency"
	FamilyTPSPerUser = "tps_per_user"
	FamilyTPSSystem  = "tps_system"
)

// Families returns the certified metric families in report order.
func Families() []string {
	return []string{FamilyTTFT, FamilyTPOT, FamilyLatency, FamilyTPSPerUser, FamilyTPSSystem}
}

// CertState is a metric family's certification.
type CertState string

// Certification states.
const (
	CertCertified CertState = "certified"
	CertRising    CertState = "rising"
	CertFalling   CertState = "falling"
	// CertNotAssessed: no certified window, or too few points to test.
	CertNotAssessed CertState = "not_assessed"
)

// Certification thresholds. A family trends over a span when its OLS
// slope, its Newey–West slope and the Hamed–Rao Mann–Kendall test (the
// gate's) are all significant (p < Params.Alpha: the per-super-pass
// series are autocorrelated, a queue's TTFT strongly so),
// the rate is at least certRatePer10Min of the median per 10 minutes of
// issue time, and the fitted change over the span is at least
// max(Params.TrendRelDriftMin, certNoiseMult × the series' relative noise)
// — noise being stats.SuccessiveDiffSD over the median, the scatter of one
// super-pass about its neighbours, so a merely noisy TTFT tail (CoV
// 0.3–0.9 in healthy runs, design §5.5) is not called a trend. Over the
// span from the window to the run's end a line must also fit better (BIC)
// than 2–3 levels whose first is the window's (as the drift guard): a
// later level shift is the anomaly detector's, not a trend.
const (
	certRatePer10Min = 0.05
	certNoiseMult    = 3.0
)

// MetricCert is the certification of one metric family.
type MetricCert struct {
	Family string
	State  CertState
	// Span names the tested span that decided ("window", "window to run
	// end" or "token-rate plateau"; "" when not assessed).
	Span string
	// PctPer10Min is the OLS slope in percent of the median per 10 minutes
	// of issue time over Span; P the OLS two-sided p-value and NoisePct
	// the relative noise in percent (NaN when not tested).
	PctPer10Min, P, NoisePct float64
	// Reason says why the family is not certified ("" when it is).
	Reason string
}

// Certification is the certification of every reported metric family.
type Certification struct {
	// Basis is "issue_time_window" or "token_rate_plateau" ("" without a
	// certified window).
	Basis   string
	Metrics []MetricCert
}

// State returns the state of family f (CertNotAssessed when absent).
func (c *Certification) State(f string) CertState {
	if c != nil {
		for _, m := range c.Metrics {
			if m.Family == f {
				return m.State
			}
		}
	}
	return CertNotAssessed
}

// Trending returns the families that rise or fall.
func (c *Certification) Trending() []MetricCert {
	if c == nil {
		return nil
	}
	var out []MetricCert
	for _, m := range c.Metrics {
		if m.State == CertRising || m.State == CertFalling {
			out = append(out, m)
		}
	}
	return out
}

// notAssessed is the certification of a result without a certified window:
// every family not assessed, with the reason.
func notAssessed(reason string) *Certification {
	c := &Certification{}
	for _, f := range Families() {
		c.Metrics = append(c.Metrics, MetricCert{Family: f, State: CertNotAssessed, Reason: reason,
			PctPer10Min: math.NaN(), P: math.NaN(), NoisePct: math.NaN()})
	}
	return c
}

// certSeries is one family's series over the spans tested: per super-pass
// (or per plateau bin) values ys and their times ts in seconds, and the
// measurements of its window and of the whole series (certStat), taken on
// first use.
type certSeries struct {
	family     string
	ys, ts     []float64
	win, whole *certStat
}

// stat returns the measurements of the window [0, winN) (whole false) or
// of the whole series.
func (s *certSeries) stat(winN int, whole bool) *certStat {
	if whole {
		if s.whole == nil {
			s.whole = certStatOf(s.ys, s.ts)
		}
		return s.whole
	}
	if s.win == nil {
		s.win = certStatOf(s.ys[:winN], s.ts[:winN])
	}
	return s.win
}

// certStat is what certifySpan measures of a series before it applies
// the parameters' thresholds (Alpha, TrendRelDriftMin, MinTrendN): a sweep's
// parameter sets share it (memoView.certSeries). The Hamed–Rao test and
// the step fit are taken on first use (the step fit per minimum length).
type certStat struct {
	ys []float64
	// tested reports at least three points, a positive |median| and a
	// positive mean time step: the series can be tested.
	tested         bool
	med, tau, mean float64
	noise, pNW     float64
	o              stats.OLSResult
	mk             *stats.MannKendallResult
	steps          map[int]float64 // bestStepBIC(ys, 3, minN) by minN
}

func certStatOf(ys, ts []float64) *certStat {
	c := &certStat{ys: ys}
	n := len(ys)
	if n < 3 {
		return c
	}
	c.med = math.Abs(stats.Median(ys))
	if !(c.med > 0) {
		return c
	}
	c.tau = (ts[n-1] - ts[0]) / float64(n-1)
	if !(c.tau > 0) {
		return c
	}
	c.tested = true
	c.o = stats.OLS(ys)
	c.pNW = stats.NeweyWest(ys, stats.NeweyWestLags(n)).P
	c.noise = stats.SuccessiveDiffSD(ys) / c.med
	c.mean = stats.Mean(ys)
	return c
}

// hamedRao is trendVerdict(TrendMKHamedRao, ys, minN, alpha) with the
// test's statistic kept.
func (c *certStat) hamedRao(minN int, alpha float64) stats.Verdict {
	if len(c.ys) < minN || len(c.ys) < stats.MinTrendN {
		return trendVerdict(TrendMKHamedRao, c.ys, minN, alpha)
	}
	if c.mk == nil {
		mk := stats.HamedRao(c.ys)
		c.mk = &mk
	}
	return c.mk.Verdict(alpha)
}

// stepBIC is bestStepBIC(ys, 3, minN, stop), kept unless stop cut it short.
func (c *certStat) stepBIC(minN int, stop *stopper) float64 {
	if b, ok := c.steps[minN]; ok {
		return b
	}
	b := bestStepBIC(c.ys, 3, minN, stop)
	if stop.failed() {
		return b
	}
	if c.steps == nil {
		c.steps = map[int]float64{}
	}
	c.steps[minN] = b
	return b
}

// certifySpan tests ys (times ts, seconds) for a trend; withSteps also
// asks that a line beat 2–3 levels whose first holds MinTrendN points.
// The returned record has State CertCertified when nothing fires.
func certifySpan(family, span string, ys, ts []float64, p Params, withSteps bool, stop *stopper) MetricCert {
	return certStatOf(ys, ts).decide(family, span, p, withSteps, stop)
}

// decide is certifySpan of the measured series under p.
func (c *certStat) decide(family, span string, p Params, withSteps bool, stop *stopper) MetricCert {
	mc := MetricCert{Family: family, State: CertCertified, PctPer10Min: math.NaN(), P: math.NaN(), NoisePct: math.NaN()}
	n := len(c.ys)
	if n < p.MinTrendN || !c.tested {
		return mc
	}
	o, med, tau, noise := c.o, c.med, c.tau, c.noise
	mc.Span, mc.P = span, o.P
	mc.PctPer10Min = 100 * o.Slope / tau * 600 / med
	mc.NoisePct = 100 * noise
	change := math.Abs(o.Slope) * float64(n-1) / med
	pNW := c.pNW
	if o.Degenerate && o.Slope != 0 {
		mc.P, pNW = 0, 0 // an exact line (stats.OLSResult)
	}
	fires := mc.P < p.Alpha && pNW < p.Alpha && math.Abs(mc.PctPer10Min) >= 100*certRatePer10Min &&
		change >= math.Max(p.TrendRelDriftMin, certNoiseMult*noise)
	if fires {
		fires = c.hamedRao(p.MinTrendN, p.Alpha) != stats.VerdictSteady
	}
	if fires && withSteps {
		fires = bic(o.RSS, n, 2, c.mean) < c.stepBIC(p.MinTrendN, stop)
	}
	if !fires {
		return mc
	}
	mc.State, mc.Reason = CertFalling, "falling"
	if o.Slope > 0 {
		mc.State, mc.Reason = CertRising, "rising"
	}
	mc.Reason = fmt.Sprintf("%s: %s %.0f %%/10 min over the %s (p = %.2g)", family, mc.Reason,
		math.Abs(mc.PctPer10Min), span, mc.P)
	return mc
}

// certifyFamilies certifies each series over the window [0, winN) and,
// when longer, over the whole series to the run's end; TPOT is certified
// by the selection (gate, drift guard) and is not retested. The series'
// measurements are kept in them (certSeries.stat).
func certifyFamilies(series []certSeries, winN int, basis string, p Params, stop *stopper) *Certification {
	c := &Certification{Basis: basis, Metrics: make([]MetricCert, 0, len(series)+1)}
	span := "window"
	if basis == "token_rate_plateau" {
		span = "token-rate plateau"
	}
	for i := range series {
		s := &series[i]
		mc := s.stat(winN, false).decide(s.family, span, p, false, stop)
		if mc.State == CertCertified && len(s.ys) > winN {
			if tail := s.stat(winN, true).decide(s.family, "window to run end", p, true, stop); tail.State != CertCertified {
				mc = tail
			}
		}
		c.Metrics = append(c.Metrics, mc)
	}
	return c
}

// certifyWindow certifies the families of the certified window
// as.Window of the window path over it and to the last full super-pass.
func (a *analysis) certifyWindow() *Certification {
	as := a.assess
	sps := a.res.series
	lo, hi, end := int(as.Window.Lo), int(as.Window.Hi), len(sps)
	fams, winN := a.memo.certSeries(lo, hi, end, func() ([]certSeries, int) { return certSeriesOf(sps, a.pct, lo, hi, end) })
	c := certifyFamilies(fams, winN, "issue_time_window", a.p, a.stop)
	return withTPOT(c)
}

// certSeriesOf is the families' series over the super-passes [lo, end) of
// sps (pct their percentiles) and the number of their points before hi:
// one point per super-pass with an issue span and every family's value.
func certSeriesOf(sps []SuperPass, pct []*spPercentiles, lo, hi, end int) ([]certSeries, int) {
	lat := MetricIndex("latency_p50")
	fams := []certSeries{{family: FamilyTTFT}, {family: FamilyLatency}, {family: FamilyTPSPerUser}, {family: FamilyTPSSystem}}
	for i := range fams {
		fams[i].ys, fams[i].ts = make([]float64, 0, end-lo), make([]float64, 0, end-lo)
	}
	winN := 0
	for k := lo; k < end; k++ {
		sp, pc := &sps[k], pct[k]
		if sp.LastIssueNs <= sp.FirstIssueNs || sp.FirstIssueNs < 0 || pc == nil {
			continue
		}
		t := float64(sp.FirstIssueNs+sp.LastIssueNs) / 2e9
		vals := [4]float64{math.NaN(), math.NaN(), math.NaN(), float64(sp.SysTokens) / (float64(sp.LastIssueNs-sp.FirstIssueNs) / 1e9)}
		if pc.ok[mTTFTP50] {
			vals[0] = pc.v[mTTFTP50]
		}
		if lat >= 0 && pc.ok[lat] {
			vals[1] = pc.v[lat]
		}
		if pc.tpotMean > 0 {
			vals[2] = 1e9 / pc.tpotMean
		}
		if math.IsNaN(vals[0]) || math.IsNaN(vals[1]) || math.IsNaN(vals[2]) {
			continue // a super-pass without the data every family needs
		}
		for i := range fams {
			fams[i].ys, fams[i].ts = append(fams[i].ys, vals[i]), append(fams[i].ts, t)
		}
		if k < hi {
			winN++
		}
	}
	return fams, winN
}

// withTPOT inserts TPOT, certified by the selection, in report order.
func withTPOT(c *Certification) *Certification {
	tpot := MetricCert{Family: FamilyTPOT, State: CertCertified, PctPer10Min: math.NaN(), P: math.NaN(), NoisePct: math.NaN()}
	c.Metrics = append(c.Metrics[:1], append([]MetricCert{tpot}, c.Metrics[1:]...)...)
	return c
}

// applyCertification nulls the steady numbers of every trending family and
// derives the verdict: a certified TPOT window with other families
// trending is steady_tpot_ttft_drifting (TTFT among them) or
// steady_tpot_metrics_drifting; their reasons join the result's.
func (a *analysis) applyCertification(c *Certification) {
	as, ss := a.assess, &a.res.Steady
	as.Certification = c
	trending := c.Trending()
	if len(trending) == 0 {
		return
	}
	nan := math.NaN()
	for _, m := range trending {
		switch m.Family {
		case FamilyTTFT:
			ss.TTFT = nil
			if as.Steady != nil {
				as.Steady.TTFT = Quantiles{nan, nan, nan}
			}
		case FamilyLatency:
			if as.Steady != nil {
				as.Steady.Lat = Quantiles{nan, nan, nan}
			}
		case FamilyTPSPerUser:
			if ss.TPS != nil {
				ss.TPS.PerUser, ss.TPS.PerUserCI, ss.TPS.PerUserReason = nan, [2]float64{nan, nan}, m.Reason
			}
			if as.Steady != nil {
				as.Steady.TPSPerUser = nan
			}
		case FamilyTPSSystem:
			if ss.TPS != nil {
				ss.TPS.System, ss.TPS.SystemCI, ss.TPS.SystemReason = nan, [2]float64{nan, nan}, m.Reason
			}
			if as.Steady != nil {
				as.Steady.TPSSystem = nan
			}
		}
		as.Reason = joinReason(as.Reason, m.Reason)
	}
	if as.Verdict == VerdictSteadyState {
		as.Verdict = VerdictSteadyTPOTMetricsDrifting
		if c.State(FamilyTTFT) == CertRising || c.State(FamilyTTFT) == CertFalling {
			as.Verdict = VerdictSteadyTPOTTTFTDrifting
		}
	}
}

// certify runs the certification stage of a steadysweep window-path
// result: per family over a certified window (issue-time or token-rate
// plateau), else every family not assessed; then one verdict: a result
// that is not found never reads steady.
func (a *analysis) certify() {
	as, r := a.assess, a.res
	switch {
	case as.Offline != nil && as.Status == StatusWindowable && as.Steady != nil:
		a.applyCertification(a.certifyOffline())
	case as.Offline == nil && as.Window.Ok() && r.Steady.Found && as.Status == StatusWindowable:
		a.applyCertification(a.certifyWindow())
	default:
		reason := as.Reason
		if reason == "" {
			reason = "no certified steady window"
		}
		as.Certification = notAssessed(reason)
	}
	found := as.Status == StatusWindowable && (r.Steady.Found || as.Offline != nil)
	if found && as.Offline != nil {
		r.Steady.Found = true // the token-rate plateau is the steady window (D9)
	}
	if !found && as.Offline != nil {
		// An uncertified token-rate plateau has no steady numbers: one
		// reason, the result's, in every output.
		nan := math.NaN()
		as.Steady, as.EarlyStop.Steady = nil, nil
		r.Steady.TTFT, r.Steady.TPOT = nil, nil
		r.Steady.TPS = &TPS{PerUser: nan, PerUserCI: [2]float64{nan, nan}, System: nan, SystemCI: [2]float64{nan, nan},
			SystemReason: as.Reason, PerUserReason: as.Reason}
	}
	if !found && (as.Verdict == VerdictSteadyState || as.Verdict == VerdictSteadyTPOTTTFTDrifting ||
		as.Verdict == VerdictSteadyTPOTMetricsDrifting) {
		as.Verdict = VerdictNotFound
	}
}

// certifyOffline certifies the families of an offline (or backlogged
// Poisson) run over the token-rate plateau it was windowed by, one point
// per plateau bin: the TTFT and latency medians and the per-user TPS of
// the samples whose first token falls in the bin and that complete inside
// the plateau (at least 3), and the bin's decode rate. Offline TTFT is time
// spent queued for admission, so it rises through a burst run: then it is
// reported rising, not steady.
func (a *analysis) certifyOffline() *Certification {
	ow := a.assess.Offline
	s := a.run.samples
	exclude := a.run.excluded()
	t0 := int64(math.MaxInt64)
	for _, t := range s.IssueNs {
		t0 = min(t0, t)
	}
	nb := ow.Hi - ow.Lo
	ttft, lat, tpot := make([][]float64, nb), make([][]float64, nb), make([][]float64, nb)
	end := ow.StartS + ow.DurationS
	for i := range s.Len() {
		if !at(s.HasFirstToken, i, false) || !at(s.HasComplete, i, false) || at(exclude, i, false) {
			continue
		}
		ft := float64(at(s.FirstTokenNs, i, 0)-t0) / 1e9
		ct := float64(at(s.CompleteNs, i, 0)-t0) / 1e9
		if ft < ow.StartS || ct > end {
			continue
		}
		b := min(nb-1, int((ft-ow.StartS)/ow.BinS))
		ttft[b] = append(ttft[b], float64(at(s.TTFTNs, i, 0)))
		lat[b] = append(lat[b], float64(at(s.LatencyNs, i, 0)))
		if tok := at(s.OutTokens, i, -1); tok > 0 {
			tpot[b] = append(tpot[b], float64(at(s.CompleteNs, i, 0)-at(s.FirstTokenNs, i, 0))/float64(tok))
		}
	}
	fams := []certSeries{{family: FamilyTTFT}, {family: FamilyLatency}, {family: FamilyTPSPerUser}, {family: FamilyTPSSystem}}
	for b := range nb {
		if len(ttft[b]) < 3 || len(tpot[b]) == 0 {
			continue
		}
		t := ow.StartS + (float64(b)+0.5)*ow.BinS
		vals := [4]float64{stats.Median(ttft[b]), stats.Median(lat[b]), 1e9 / stats.Mean(tpot[b]), ow.Rates[ow.Lo+b]}
		for i := range fams {
			fams[i].ys, fams[i].ts = append(fams[i].ys, vals[i]), append(fams[i].ts, t)
		}
	}
	return withTPOT(certifyFamilies(fams, len(fams[0].ys), "token_rate_plateau", a.p, a.stop))
}
