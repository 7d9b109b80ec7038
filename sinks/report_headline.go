package sinks

import (
	"fmt"
	"math"
	"strings"

	"github.com/steadysweep/steadysweep/core"
)

// writeHeadline prints the result a reader came for, in order: status and
// verdict, the steady window, throughput, latency steady vs total, early
// stopping, anomaly and the gap between total and steady.
func writeHeadline(b *reportBuilder, r *core.Result, o *core.Outcome) {
	b.blank()
	b.field("status", b.p.paint(statusStyle(o.Status), orNA(o.Status)))
	b.field("verdict", b.p.paint(verdictStyle(o.Verdict), orNA(o.Verdict)))
	if o.Reason != "" {
		b.field("reason", o.Reason)
	}
	writeWindow(b, r, o)
	if r.Path == core.PathNATL {
		return
	}
	writeThroughput(b, o)
	writeLatency(b, o)
	writeFindings(b, o)
}

// writeWindow prints the reported window in absolute and post-warmup
// super-passes, its size and duration against the minimum duration.
func writeWindow(b *reportBuilder, r *core.Result, o *core.Outcome) {
	if o.WindowStartSP < 0 {
		b.field("window", "none")
		return
	}
	lo, hi := o.WindowStartSP, o.WindowEndSP
	b.field("window", fmt.Sprintf("super-passes %s (post-warmup %s) · %d super-passes · %d samples · %s",
		spRange(lo, hi), spRange(lo-r.Warmup, hi-r.Warmup), hi-lo+1, o.WindowSamples, seconds(o.WindowDurationS)))
	var notes []string
	if w := r.Steady.Window; w != nil {
		if i := reportedPlateau(&r.Steady); i >= 0 {
			notes = append(notes, fmt.Sprintf("plateau %d of %d", i+1, len(r.Steady.Plateaus)))
		} else {
			n := 0
			for _, pl := range r.Steady.Plateaus {
				if pl.Lo < w.SPHi && w.SPLo < pl.Hi {
					n++
				}
			}
			notes = append(notes, fmt.Sprintf("spans %d of %d plateaus", n, len(r.Steady.Plateaus)))
		}
		if w.SkippedShort > 0 {
			notes = append(notes, fmt.Sprintf("%d shorter plateau(s) skipped", w.SkippedShort))
		}
	}
	if !math.IsNaN(o.MinDurationS) {
		need := "minimum " + seconds(o.MinDurationS)
		if o.MinDurationDominant != "" {
			need += " (" + o.MinDurationDominant + "-dominated)"
		}
		notes = append(notes, need)
	}
	if len(notes) > 0 {
		b.field("", strings.Join(notes, " · "))
	}
	if o.IsShort {
		b.field("", b.p.paint(warn, "window shorter than the minimum duration: "+
			"a best-effort estimate over too little wall time"))
	}
}

// writeThroughput prints per-user and system TPS of the window with their
// 95 % batch-means confidence intervals, beside the whole run's.
func writeThroughput(b *reportBuilder, o *core.Outcome) {
	b.blank()
	t := &textTable{indent: "  ", align: "lrlll"}
	t.add(cell{"throughput", bold}, cell{"steady", dim}, txt(""), cell{"95% CI", dim}, cell{"total", dim})
	row := func(name string, v, lo, hi, total float64, unit string) {
		if math.IsNaN(v) {
			t.add(txt(name), txt(notAvailable), txt(""), txt(""), txt(withUnit(total, 1, unit)))
			return
		}
		t.add(txt(name), cell{fixed(v, 1), bold}, txt(unit), txt("["+fixed(lo, 1)+", "+fixed(hi, 1)+"]"),
			txt(withUnit(total, 1, unit)))
	}
	row("  per-user TPS", o.SteadyTPSPerUser, o.SteadyTPSPerUserCILo, o.SteadyTPSPerUserCIHi, o.TotalTPSPerUser,
		"tok/s/user")
	row("  system TPS", o.SteadyTPSSystem, o.SteadyTPSSystemCILo, o.SteadyTPSSystemCIHi, o.TotalTPSSystem, "tok/s")
	b.table(t)
}

// withUnit formats x with its unit, or n/a alone.
func withUnit(x float64, prec int, unit string) string {
	s := fixed(x, prec)
	if s == notAvailable {
		return s
	}
	return s + " " + unit
}

// writeLatency prints TTFT and TPOT percentiles of the window and of the
// whole run, so the cost of not cropping reads off one column.
func writeLatency(b *reportBuilder, o *core.Outcome) {
	b.blank()
	t := &textTable{indent: "  ", align: "llrrr"}
	t.add(cell{"latency (ms)", bold}, txt(""), cell{"p50", dim}, cell{"p90", dim}, cell{"p99", dim})
	rows := []struct {
		metric, scope string
		p50, p90, p99 float64
	}{
		{"  TTFT", "steady", o.SteadyTTFTP50Ns, o.SteadyTTFTP90Ns, o.SteadyTTFTP99Ns},
		{"", "total", o.TotalTTFTP50Ns, o.TotalTTFTP90Ns, o.TotalTTFTP99Ns},
		{"  TPOT", "steady", o.SteadyTPOTP50Ns, o.SteadyTPOTP90Ns, o.SteadyTPOTP99Ns},
		{"", "total", o.TotalTPOTP50Ns, o.TotalTPOTP90Ns, o.TotalTPOTP99Ns},
	}
	for _, row := range rows {
		st := dim
		if row.scope == "steady" {
			st = bold
		}
		t.add(txt(row.metric), txt(row.scope), cell{ms(row.p50), st}, cell{ms(row.p90), st}, cell{ms(row.p99), st})
	}
	b.table(t)
	b.line("  early-stopping p99 (LoadGen estimate, 99% confidence): TTFT " +
		withUnit(o.EarlyStopTTFTP99Ns/1e6, 2, "ms") + " · TPOT " + withUnit(o.EarlyStopTPOTP99Ns/1e6, 2, "ms"))
}

// writeFindings prints what qualifies the numbers: the level shift, the
// total-vs-steady gap, per-metric states, drift after the window and the
// drain-tail cut.
func writeFindings(b *reportBuilder, o *core.Outcome) {
	b.blank()
	anomaly := "none"
	if o.AnomalyDetected {
		anomaly = "level shift"
		if o.ChangePointSP >= 0 {
			anomaly += fmt.Sprintf(" at super-pass %d (absolute)", o.ChangePointSP)
		}
		anomaly += ", TPOT " + signedPct(o.AnomalyDeltaPct) + " in the later plateau"
		anomaly = b.p.paint(bad, anomaly)
	}
	b.field("anomaly", anomaly)
	if math.IsNaN(o.GapTPSUpliftPct) && math.IsNaN(o.GapTTFTP99ChangePct) && math.IsNaN(o.GapRetainedFrac) {
		b.field("gap", "n/a")
	} else {
		retained := notAvailable
		if !math.IsNaN(o.GapRetainedFrac) {
			retained = fixed(100*o.GapRetainedFrac, 1) + "%"
		}
		b.field("gap", "steady vs total: system TPS "+signedPct(o.GapTPSUpliftPct)+" · TTFT p99 "+
			signedPct(o.GapTTFTP99ChangePct)+" · window holds "+retained+" of samples")
	}
	if o.StateTPOTP50 != "" || o.StateTPOTP90 != "" {
		b.field("state", "tpot_p50 "+orNA(o.StateTPOTP50)+" · tpot_p90 "+orNA(o.StateTPOTP90))
	}
	if len(o.DriftingUp) > 0 {
		b.field("drift", b.p.paint(warn, strings.Join(o.DriftingUp, ", ")+
			" trend up from the window's start to the run's end: the window may be a local plateau"))
	}
	if o.TailCutApplied {
		b.field("tail", "the drain tail of the window's TPOT was cut (guarded cut applied)")
	}
}
