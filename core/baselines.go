package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Method is the window rule of a steadysweep analysis: the steady-state
// detector, or a peer baseline that other tools use, for comparing against.
type Method string

// The methods.
const (
	// MethodSteady is the steady-state detector.
	MethodSteady Method = "steady"
	// MethodTotal reports the whole tracked run.
	MethodTotal Method = "total"
	// MethodFixedPct drops fixed warmup/cooldown percentages (as GuideLLM does).
	MethodFixedPct Method = "fixed-pct"
	// MethodMSER5 keeps what MSER-5 truncation keeps.
	MethodMSER5 Method = "mser5"
)

// Methods returns the methods in documentation order.
func Methods() []Method {
	return append([]Method{MethodSteady, MethodTotal, MethodFixedPct, MethodMSER5}, PeerMethods()...)
}

func (m Method) String() string { return string(m) }

// Valid reports whether m is one of Methods.
func (m Method) Valid() bool { _, err := ParseMethod(string(m)); return err == nil }

// ParseMethod returns the Method spelled s.
func ParseMethod(s string) (Method, error) { return parseEnum("method", s, Methods()) }

// baseline is the strategy of a peer-baseline method: steadysweep's
// series, assessment and reporting, with the window chosen by a fixed rule
// on the full super-passes (warmup 0 unless WarmupMode is fixed):
//
//	total      every super-pass (the whole tracked run)
//	fixed-pct  drop round(n·FixedWarmupPct/100) leading and
//	           round(n·FixedCooldownPct/100) trailing super-passes (as
//	           GuideLLM crops a fixed share; super-pass granularity)
//	mser5      MSER-5 truncation (White 1997) of the per-sample TPOT series
//	           in super-pass order; the window starts at the first
//	           super-pass after the truncated samples and runs to the end
//
// A baseline always reports its window (Found), with per-metric states,
// but no level-shift detection.
type baseline struct {
	steadysweep
	method Method
}

func (b baseline) warmup(a *analysis) int {
	if a.p.WarmupMode == WarmupFixed {
		return a.p.WarmupFixed
	}
	return 0
}

// window is the baseline's window [lo, hi) of the post-warmup series;
// reason says why a peer detector reports none (peers.go).
func (b baseline) window(a *analysis) (lo, hi int, reason string) {
	p, n := a.p, len(a.res.post)
	if isPeer(b.method) {
		return peerSPWindow(a, b.method)
	}
	switch b.method {
	case MethodFixedPct:
		return int(math.Round(float64(n) * p.FixedWarmupPct / 100)), n - int(math.Round(float64(n)*p.FixedCooldownPct/100)), ""
	case MethodMSER5:
		return mser5Start(a.res.post), n, ""
	}
	return 0, n, ""
}

func (b baseline) selectSteady(a *analysis) {
	r, p, pct := a.res, a.p, a.res.pct
	a.assess.Baseline = b.method
	a.assess.Selection = Selection{MSERStart: NoSPIndex, OLSP: math.NaN(), NeweyWestP: math.NaN()}
	ss := &r.Steady
	*ss = SteadyState{Anomaly: Anomaly{ChangePointSP: -1}}
	n := len(r.post)
	lo, hi, reason := b.window(a)
	if lo >= hi || n == 0 {
		ss.Reason = "baseline window is empty"
		if reason != "" {
			ss.Reason = string(b.method) + ": " + reason
		}
		a.assess.Selection.States = statesOver(pct, 0, n, p, a.memo)
		return
	}
	a.fillWindow(lo, hi, 0, 1, 0)
	short := a.memo.minDuration(r.post, pct, lo, hi, minDurationOf(p))
	ss.ShortWindow = &short
	ss.Found = true
	ss.Plateaus = []Plateau{{lo, hi}}
	ss.Anomaly.Plateaus = ss.Plateaus
	ss.setGlobalTrend(pct, lo, p, a.memo)
	a.assess.Selection.States = statesOver(pct, lo, hi, p, a.memo)
	a.assess.Window = absRange(r.Warmup, lo, hi)
}

// mser5Start is the first super-pass after MSER-5's truncation of the
// pooled per-sample TPOT series of post (0 when MSER cannot run).
func mser5Start(post []SuperPass) int {
	xs := pooled(post, func(sp *SuperPass) []float64 { return sp.TPOT })
	_, d := stats.MSER(xs, 5)
	if d <= 0 {
		return 0
	}
	cut, seen := d*5, 0
	for i := range post {
		if seen >= cut {
			return i
		}
		seen += len(post[i].TPOT)
	}
	return len(post)
}
