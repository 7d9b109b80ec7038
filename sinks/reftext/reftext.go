// Package reftext renders a core.Result as the reference CLI's stdout
// (detector spec §12, or the NATL report and banner of §13), byte for
// byte: the headline, the warnings and the per-window-size diagnostics.
package reftext

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// Write writes the reference CLI's stdout for r to w, ending with "\n".
// The error is w's, or the run's Stop hook ending the diagnostic tables.
func Write(w io.Writer, r *core.Result) error {
	text, err := Text(r)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, text)
	return err
}

// Text returns the reference CLI's stdout for r.
func Text(r *core.Result) (string, error) {
	if r.Path == core.PathNATL && r.NATL != nil {
		return natl(r.NATL), nil
	}
	tables, err := r.Diagnostics()
	if err != nil {
		return "", err
	}
	var t text
	t.Grow(textSize(len(tables)))
	t.add("super-passes: ", itoa(r.NSuperPasses), " (size ", itoa(r.SuperpassSize), ", warmup ", itoa(r.Warmup),
		" [", string(r.WarmupMode), "], post-warmup ", itoa(r.NPostWarmup), ")")
	t.add()
	t.add("=== STEADY STATE (headline) ===")
	headline(t.add, &r.Steady)
	t.add()
	t.add("--- diagnostics (per window size) ---")
	diagnostics(&t, r, tables)
	return t.String(), nil
}

// text is the report being written: each line appended whole, with its
// line break, to one buffer, which String returns without a copy. (Made
// as a list of lines, each joined from its cells and padded strings, then
// joined, the 6 kB report of a warm analyze allocated 42 kB, fresh pages
// a short command faults in one by one.)
type text struct{ strings.Builder }

// add appends one line: its parts, then a line break.
func (t *text) add(parts ...string) {
	for _, p := range parts {
		t.WriteString(p)
	}
	t.WriteByte('\n')
}

// pad appends s padded with spaces to w runes: on the right (ljust), or
// on the left when right (rjust).
func (t *text) pad(s string, w int, right bool) {
	n := w - utf8.RuneCountInString(s)
	if !right {
		t.WriteString(s)
	}
	for ; n > 0; n-- {
		t.WriteByte(' ')
	}
	if right {
		t.WriteString(s)
	}
}

// textSize is room for the report of n window sizes (the diagnostics
// block of one is about 1.9 kB with the reference's ten metrics).
func textSize(n int) int { return 1024 + 2048*n }

func itoa(i int) string { return strconv.Itoa(i) }

// headline is the STEADY STATE block and its warnings (§12).
func headline(add func(...string), ss *core.SteadyState) {
	if !ss.Found {
		add("  not found: ", ss.Reason)
	} else {
		w, t := ss.Window, ss.TPS
		add("  window: super-passes ", itoa(w.SPLo), "..", itoa(w.SPHi-1), " (post-warmup), ", itoa(w.NSamples), " samples")
		if w.SkippedShort > 0 {
			add("  note: skipped ", itoa(w.SkippedShort), " earlier plateau(s) below min-duration; reporting plateau ",
				itoa(w.PlateauIndex+1), " of ", itoa(w.NPlateaus))
		}
		add("  TPS per-user: ", fixedW(t.PerUser, 8, 1), " tok/s/user  CI [", pyjson.Fixed(t.PerUserCI[0], 1), ", ",
			pyjson.Fixed(t.PerUserCI[1], 1), "]")
		add("  TPS system:   ", fixedW(t.System, 8, 1), " tok/s        CI [", pyjson.Fixed(t.SystemCI[0], 1), ", ",
			pyjson.Fixed(t.SystemCI[1], 1), "]")
		for _, nm := range []struct {
			name string
			s    *stats.Summary
		}{{"TTFT", ss.TTFT}, {"TPOT", ss.TPOT}} {
			if nm.s != nil {
				add("  ", nm.name, " p50 ", ms(nm.s.P50), "  p90 ", ms(nm.s.P90), "  p99 ", ms(nm.s.P99),
					"  mean ", ms(nm.s.Mean))
			}
		}
	}
	if sw := ss.ShortWindow; ss.Found && sw != nil && sw.IsShort {
		add("  WARNING: Window too short -- ", pyjson.Fixed(sw.WindowDurationS, 0), "s steady vs ",
			pyjson.Fixed(sw.MinDurationS, 0), "s desired (", sw.Dominant,
			"-dominated); the steady number is a best-effort estimate over too little wall-time")
	}
	if len(ss.DriftingUp) > 0 {
		add("  WARNING: ", strings.Join(ss.DriftingUp, ", "),
			" drifting UP over the rest of the run -- the window is a local plateau; global steady state is questionable")
	}
	if a := ss.Anomaly; a.Detected {
		add("  ANOMALY: level shift at super-pass ", itoa(a.ChangePointSP), ", TPOT ", signed(a.DeltaPct, 1),
			"% toward end of run (likely degradation)")
	}
}

// diagnostics are the CoV and whole-run drift tables per window size, in
// ascending size (the reference sorts its keys by integer value).
func diagnostics(t *text, r *core.Result, tables []core.WindowDiagnostics) {
	hdr := make([]string, len(r.CovBounds))
	for i, b := range r.CovBounds {
		hdr[i] = "cov<=" + pyjson.Float(b)
	}
	boundHdr := strings.Join(hdr, "  ")
	distinct := r.DistinctCovBounds()
	diags := make([]*core.WindowDiagnostics, len(tables))
	for i := range tables {
		diags[i] = &tables[i]
	}
	sortByW(diags)
	ms := core.Metrics()
	gates := core.TrendGates()
	for _, d := range diags {
		ws := itoa(d.W)
		t.add()
		t.add("=== window size ", ws, " ===")
		t.add()
		t.add("CoV steadiness (trailing ", ws, " super-passes)")
		t.WriteString("  ")
		t.pad("metric", 12, false)
		t.WriteByte(' ')
		t.pad("gate", 5, false)
		t.WriteByte(' ')
		t.pad("CoV", 8, true)
		t.add("   ", boundHdr)
		for m, tm := range ms {
			c := d.Cov[m]
			covs := "   n/a"
			if c.N >= 2 {
				covs = pyjson.Fixed(c.CoV, 4)
			}
			tag := "diag"
			if tm.Gated {
				tag = "gate"
			}
			t.WriteString("  ")
			t.pad(tm.Key, 12, false)
			t.WriteByte(' ')
			t.pad(tag, 5, false)
			t.WriteByte(' ')
			t.pad(covs, 8, true)
			t.WriteString("   ")
			for i, b := range r.CovBounds {
				g := "n/a"
				if c.N >= 2 {
					g = "fail"
					for j, db := range distinct {
						if db == b && c.Passes[j] {
							g = "PASS"
						}
					}
				}
				if i > 0 {
					t.WriteString("  ")
				}
				t.pad(g, 7, true)
			}
			t.add()
		}
		t.add()
		t.add("drift (whole-run trend per metric; rolling scan is in --json)")
		t.WriteString("  ")
		t.pad("metric", 12, false)
		t.WriteByte(' ')
		for i, g := range gates {
			if i > 0 {
				t.WriteString("  ")
			}
			t.pad(string(g), 16, true)
		}
		t.add()
		for m, tm := range ms {
			t.WriteString("  ")
			t.pad(tm.Key, 12, false)
			t.WriteByte(' ')
			for i, v := range d.Drift[m].WholeRun {
				if i > 0 {
					t.WriteString("  ")
				}
				t.pad(glyph(v), 16, true)
			}
			t.add()
		}
	}
}

// glyph is the reference's mark of a trend verdict.
func glyph(v stats.Verdict) string {
	switch v {
	case stats.VerdictUp:
		return "^ up"
	case stats.VerdictDown:
		return "v down"
	case stats.VerdictSteady:
		return "= steady"
	case stats.VerdictInsufficient:
		return ". n/a"
	}
	return ""
}

// sortByW orders the tables by window size (stable).
func sortByW(ds []*core.WindowDiagnostics) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j].W < ds[j-1].W; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

func ljust(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

func rjust(s string, w int) string {
	if n := len([]rune(s)); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return s
}

func ms(ns float64) string { return pyjson.Fixed(ns/1e6, 2) + "ms" }

// fixedW is Python's format(x, "W.Pf") (right-aligned in W columns).
func fixedW(x float64, w, prec int) string { return rjust(pyjson.Fixed(x, prec), w) }

// signed is Python's format(x, "+.Pf").
func signed(x float64, prec int) string {
	s := pyjson.Fixed(x, prec)
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}
