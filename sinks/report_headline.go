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
	writeHealth(b, r)
	writeCertification(b, r)
	writeWindow(b, r, o)
	if r.Path == core.PathNATL {
		return
	}
	writeThroughput(b, r, o)
	writeLatency(b, r, o)
	if w := SmallWindowWarning(r); w != "" {
		b.line("  " + b.p.paint(warn, "warning: "+w))
	}
	writeFindings(b, o)
	writeEarliestStop(b, r)
}

// writeHealth prints what the log itself says about the numbers: how many
// requests failed (a warning above the threshold: the numbers describe
// the successful requests only) and the samples with impossible timing
// left out.
func writeHealth(b *reportBuilder, r *core.Result) {
	as := r.Assessment
	if as == nil {
		return
	}
	if f := as.Failures; f.NFailed > 0 {
		var kinds []string
		for _, k := range f.ByKind {
			if k.N > 0 {
				kinds = append(kinds, fmt.Sprintf("%d %s", k.N, k.Kind))
			}
		}
		line := fmt.Sprintf("%d of %d requests failed (%s%%): %s", f.NFailed, f.NIssued, fixed(100*f.Frac, 1),
			strings.Join(kinds, ", "))
		if w := f.Window; w != nil {
			line += fmt.Sprintf(" · window %d of %d (%s%%)", w.NFailed, w.NIssued, fixed(100*w.Frac, 1))
		}
		st := plain
		if f.Warn() {
			st = warn
			line += fmt.Sprintf(" — more than %g%% failed: latency and throughput describe the successful requests only",
				100*f.WarnFrac())
		}
		b.field("failures", b.p.paint(st, line))
	}
	if w := as.Timing.Warning(); w != "" {
		st := warn
		if !as.Timing.Trusted {
			st = bad
		}
		b.field("timing", b.p.paint(st, w))
	}
}

// writeCertification prints each reported metric family's certification
// (core/certify.go) when one is not certified: the steady values of a
// rising or falling family are n/a, its reason is in the reason line.
func writeCertification(b *reportBuilder, r *core.Result) {
	as := r.Assessment
	if as == nil || len(as.Certification.Trending()) == 0 {
		return
	}
	var parts []string
	for _, m := range as.Certification.Metrics {
		st := plain
		if m.State == core.CertRising || m.State == core.CertFalling {
			st = warn
		}
		parts = append(parts, b.p.paint(st, m.Family+" "+string(m.State)))
	}
	b.field("metrics", strings.Join(parts, " · "))
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
			notes = append(notes, Count(w.SkippedShort, "shorter plateau")+" skipped")
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
// 95 % confidence intervals (ratio intervals under steadysweep), beside
// the whole run's; a value or interval the data cannot support is n/a
// with the reason, and the whole run's completed-request rate follows.
func writeThroughput(b *reportBuilder, r *core.Result, o *core.Outcome) {
	b.blank()
	t := &textTable{indent: "  ", align: "lrlll"}
	t.add(cell{"throughput", bold}, cell{"steady", dim}, txt(""), cell{"95% CI", dim}, cell{"total", dim})
	row := func(name string, v, lo, hi, total float64, unit string) {
		ci := notAvailable
		if !math.IsNaN(lo) && !math.IsNaN(hi) {
			ci = "[" + fixed(lo, 1) + ", " + fixed(hi, 1) + "]"
		}
		if math.IsNaN(v) {
			t.add(txt(name), txt(notAvailable), txt(""), txt(""), txt(withUnit(total, 1, unit)))
			return
		}
		t.add(txt(name), cell{fixed(v, 1), bold}, txt(unit), txt(ci), txt(withUnit(total, 1, unit)))
	}
	row("  per-user TPS", o.SteadyTPSPerUser, o.SteadyTPSPerUserCILo, o.SteadyTPSPerUserCIHi, o.TotalTPSPerUser,
		"tok/s/user")
	row("  system TPS", o.SteadyTPSSystem, o.SteadyTPSSystemCILo, o.SteadyTPSSystemCIHi, o.TotalTPSSystem, "tok/s")
	b.table(t)
	// Why a steady number or its interval is n/a (one line per reason).
	if t := r.Steady.TPS; t != nil {
		notes := [][2]string{{"per-user TPS", t.PerUserReason}, {"system TPS", t.SystemReason}}
		if notes[0][1] == notes[1][1] && notes[0][1] != "" {
			notes = [][2]string{{"TPS", notes[0][1]}}
		}
		for _, n := range notes {
			if n[1] != "" {
				b.line("    " + b.p.paint(dim, n[0]+" n/a: "+n[1]))
			}
		}
	}
	if as := r.Assessment; as != nil && as.Total != nil {
		b.line(fmt.Sprintf("  requests: %s completed/s over the whole run · %d output tokens",
			fixed(as.Total.RequestsPerS, 2), as.Total.OutTokens))
		b.line("    " + b.p.paint(dim, "system TPS: "+core.SystemTokenCount+"; per-user TPS: "+core.PerUserTokenCount))
	}
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
func writeLatency(b *reportBuilder, r *core.Result, o *core.Outcome) {
	b.blank()
	t := &textTable{indent: "  ", align: "llrrr"}
	t.add(cell{"latency (ms)", bold}, txt(""), cell{"p50", dim}, cell{"p90", dim}, cell{"p99", dim})
	type latencyRow struct {
		metric, scope string
		p50, p90, p99 float64
	}
	rows := []latencyRow{
		{"  TTFT", "steady", o.SteadyTTFTP50Ns, o.SteadyTTFTP90Ns, o.SteadyTTFTP99Ns},
		{"", "total", o.TotalTTFTP50Ns, o.TotalTTFTP90Ns, o.TotalTTFTP99Ns},
		{"  TPOT", "steady", o.SteadyTPOTP50Ns, o.SteadyTPOTP90Ns, o.SteadyTPOTP99Ns},
		{"", "total", o.TotalTPOTP50Ns, o.TotalTPOTP90Ns, o.TotalTPOTP99Ns},
	}
	if as := r.Assessment; as != nil {
		nan := math.NaN()
		steady, total := core.Quantiles{P50: nan, P90: nan, P99: nan}, core.Quantiles{P50: nan, P90: nan, P99: nan}
		if as.Steady != nil {
			steady = as.Steady.Lat
		}
		if as.Total != nil {
			total = as.Total.Lat
		}
		rows = append(rows, latencyRow{"  e2e", "steady", steady.P50, steady.P90, steady.P99},
			latencyRow{"", "total", total.P50, total.P90, total.P99})
	}
	for _, row := range rows {
		st := dim
		if row.scope == "steady" {
			st = bold
		}
		t.add(txt(row.metric), txt(row.scope), cell{ms(row.p50), st}, cell{ms(row.p90), st}, cell{ms(row.p99), st})
	}
	b.table(t)
	// The Outcome's estimate is the window's, or the whole run's when
	// there is no window: say which.
	over := "window"
	if as := r.Assessment; as != nil && as.EarlyStop.Steady == nil {
		over = "whole run"
	}
	b.line("  early-stopping p99 over the " + over + " (LoadGen, 99% confidence)" + phraseSep + "TTFT " +
		withUnit(o.EarlyStopTTFTP99Ns/1e6, 2, "ms") + phraseSep + "TPOT " + withUnit(o.EarlyStopTPOTP99Ns/1e6, 2, "ms"))
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
