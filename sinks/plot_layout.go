package sinks

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
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
	Window                     *span
	Plateaus                   []span
	ChangePoint                int // first super-pass after the level shift; −1 when none
}

// layoutOf computes the plot of r. The per-super-pass values are the
// detector's (PercentileLower of each super-pass's list, detector spec §6),
// over every super-pass so the warmup shows too.
func layoutOf(r *core.Result) plotLayout {
	o := outcomeOf(r)
	sps := r.SuperPasses()
	l := plotLayout{
		Status: o.Status, Verdict: o.Verdict,
		X:       make([]float64, len(sps)),
		TPOTP50: make([]float64, len(sps)), TPOTP90: make([]float64, len(sps)),
		TTFTP50: make([]float64, len(sps)), TTFTP90: make([]float64, len(sps)),
		TotalTPOTP50: o.TotalTPOTP50Ns / 1e6, TotalTPOTP90: o.TotalTPOTP90Ns / 1e6,
		TotalTTFTP50: o.TotalTTFTP50Ns / 1e6, TotalTTFTP90: o.TotalTTFTP90Ns / 1e6,
		Warmup: r.Warmup, ChangePoint: o.ChangePointSP,
	}
	for i := range sps {
		l.X[i] = float64(i)
		l.TPOTP50[i], l.TPOTP90[i] = percentilesMs(sps[i].TPOT)
		l.TTFTP50[i], l.TTFTP90[i] = percentilesMs(sps[i].TTFT)
	}
	if o.WindowStartSP >= 0 {
		l.Window = &span{o.WindowStartSP, o.WindowEndSP}
	}
	for _, pl := range r.Steady.Plateaus {
		l.Plateaus = append(l.Plateaus, span{r.Warmup + pl.Lo, r.Warmup + pl.Hi - 1})
	}
	return l
}

// percentilesMs are the p50 and p90 of one super-pass's list in
// milliseconds; NaN when the list is empty.
func percentilesMs(ns []float64) (p50, p90 float64) {
	if len(ns) == 0 {
		return math.NaN(), math.NaN()
	}
	s := slices.Clone(ns)
	slices.Sort(s)
	return stats.PercentileLower(s, 0.50) / 1e6, stats.PercentileLower(s, 0.90) / 1e6
}
