package sinks

import (
	"math"

	"github.com/steadysweep/steadysweep/core"
)

// span is a range of super-passes on the plot's x axis, [Lo, Hi] in
// absolute super-pass indices, end inclusive.
type span struct{ Lo, Hi int }

// plotLayout is everything the plot draws, in absolute super-pass indices
// and milliseconds, taken from one Result: the per-super-pass percentiles
// of the whole series, the whole-run values, the warmup, the reported
// window, every plateau and the change point.
type plotLayout struct {
	Status, Verdict string
	// X are the absolute super-pass indices; a NaN value is a super-pass
	// without that metric (drawn as a gap).
	X                          []float64
	TPOTP50, TPOTP90           []float64
	TTFTP50, TTFTP90           []float64
	TotalTPOTP50, TotalTPOTP90 float64
	TotalTTFTP50, TotalTTFTP90 float64
	Warmup                     int // super-passes [0, Warmup) are warmup
	// Window is the window the analysis examined; Certified reports that
	// it is a certified steady state, the only window drawn as "reported".
	Window      *span
	Certified   bool
	Plateaus    []span
	ChangePoint int // first super-pass after the level shift; −1 when none
	// LatencyP50 and LatencyP90 are the end-to-end latency per super-pass,
	// drawn instead of TPOT and TTFT when the run has neither (LatencyOnly,
	// with Note saying why).
	LatencyP50, LatencyP90           []float64
	TotalLatencyP50, TotalLatencyP90 float64
	LatencyOnly                      bool
	Note                             string
}

// layoutOf computes the plot of r. The per-super-pass values are the
// detector's (PercentileLower of each super-pass's list, detector spec §6),
// over every super-pass so the warmup shows too. The window counts as
// certified when the outcome is found (under steadysweep: windowable, not
// drifting, steady).
func layoutOf(r *core.Result) plotLayout {
	o := outcomeOf(r)
	sps := r.SuperPasses()
	l := plotLayout{
		Status: string(o.Status), Verdict: string(o.Verdict),
		X:       make([]float64, len(sps)),
		TPOTP50: make([]float64, len(sps)), TPOTP90: make([]float64, len(sps)),
		TTFTP50: make([]float64, len(sps)), TTFTP90: make([]float64, len(sps)),
		TotalTPOTP50: o.TotalTPOTP50Ns / 1e6, TotalTPOTP90: o.TotalTPOTP90Ns / 1e6,
		TotalTTFTP50: o.TotalTTFTP50Ns / 1e6, TotalTTFTP90: o.TotalTTFTP90Ns / 1e6,
		Warmup: r.Warmup, ChangePoint: o.ChangePointSP, Certified: o.Found,
		LatencyP50: make([]float64, len(sps)), LatencyP90: make([]float64, len(sps)),
		TotalLatencyP50: math.NaN(), TotalLatencyP90: math.NaN(),
	}
	anyToken := false
	for i := range sps {
		l.X[i] = float64(i)
		l.TPOTP50[i], l.TPOTP90[i] = metricMs(sps[i], tpotP50, tpotP90)
		l.TTFTP50[i], l.TTFTP90[i] = metricMs(sps[i], ttftP50, ttftP90)
		l.LatencyP50[i], l.LatencyP90[i] = metricMs(sps[i], latencyP50, latencyP90)
		anyToken = anyToken || sps[i].HasTTFT() || sps[i].HasTPOT()
	}
	if as := r.Assessment; as != nil && as.Total != nil {
		l.TotalLatencyP50, l.TotalLatencyP90 = as.Total.Lat.P50/1e6, as.Total.Lat.P90/1e6
	}
	if !anyToken {
		l.LatencyOnly = true
		l.Note = "no TPOT or TTFT: no first-token events (not streamed), so steadiness cannot be assessed; " +
			"end-to-end latency shown"
	}
	if o.WindowStartSP >= 0 {
		l.Window = &span{o.WindowStartSP, o.WindowEndSP}
	}
	if !l.Certified && l.Note == "" {
		l.Note = "no steady state certified (status " + orNA(l.Status) + ", verdict " + orNA(l.Verdict) +
			"): no reported window"
	}
	for _, pl := range r.Steady.Plateaus {
		l.Plateaus = append(l.Plateaus, span{r.Warmup + pl.Lo, r.Warmup + pl.Hi - 1})
	}
	return l
}

// Indices of the plotted metrics in core.Metrics: constants, as calls of
// core.MetricIndex at package level would run in every process's init
// (issue 32); TestPlottedMetricIndices holds them to core.MetricIndex.
const (
	ttftP50, ttftP90       = 0, 1
	tpotP50, tpotP90       = 2, 3
	latencyP50, latencyP90 = 6, 7
)

// metricMs are two tracked metrics of one super-pass in milliseconds; NaN
// when the super-pass lacks them.
func metricMs(d core.SuperPassDigest, p50, p90 int) (float64, float64) {
	if !d.Has[p50] {
		return math.NaN(), math.NaN()
	}
	return d.Value[p50] / 1e6, d.Value[p90] / 1e6
}
