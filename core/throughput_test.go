package core

import (
	"math"
	"strings"
	"testing"
)

// tpsSeries is n super-passes of 100 samples issued back to back: super-
// pass i spans spans[i] seconds and carries 2,400 tokens per second of it
// (a steady rate), with TPOT 40 ms for every sample; the super-passes
// listed in tiny are issued within 1 ms but keep a normal token count,
// the shape of a window with near-zero-span super-passes.
func tpsSeries(spans []float64, tiny map[int]bool) []SuperPass {
	out := make([]SuperPass, len(spans))
	t := int64(0)
	for i, s := range spans {
		sp := &out[i]
		sp.Index, sp.NIssued, sp.NCompleted = i, 100, 100
		sp.FirstIssueNs = t
		tokens := int64(2400 * s)
		if tiny[i] {
			s = 0.001
		}
		sp.LastIssueNs = t + int64(s*1e9) - 1
		sp.LastEventNs = sp.LastIssueNs + 5e9
		sp.SysTokens, sp.OutTokens = tokens, tokens
		sp.TPOT = make([]float64, 100)
		for k := range sp.TPOT {
			sp.TPOT[k] = 40e6 * (1 + 0.01*float64(k%7-3))
		}
		t += int64(s * 1e9)
	}
	return out
}

// The super-passes' spans add up to the window's issue span exactly, so
// system TPS is tokens / issue span, the reference's point.
func TestIssueSpansAddUp(t *testing.T) {
	w := tpsSeries([]float64{50, 52, 0, 48, 51, 49}, map[int]bool{2: true})
	spans := issueSpans(w)
	sum := 0.0
	for _, s := range spans {
		sum += s
	}
	if want := float64(issueSpanNs(w)) / 1e9; math.Abs(sum-want) > 1e-9 {
		t.Errorf("spans add up to %v s, issue span %v s", sum, want)
	}
	tps := windowThroughput(w)
	if ref := windowTPS(w); math.Abs(tps.System-ref.System) > 1e-9*ref.System {
		t.Errorf("system TPS %v, reference point %v", tps.System, ref.System)
	}
}

// A window with near-zero-span super-passes: the reference's batch means
// of per-super-pass rates give an interval reaching far below 0 (the
// issue's [-180,170, 184,931] around 2,380); the ratio interval contains
// the point, stays above 0 and is narrow.
func TestThroughputNearZeroSpans(t *testing.T) {
	w := tpsSeries([]float64{50, 52, 49, 51, 48, 50, 53, 47}, map[int]bool{2: true, 5: true})
	ref := windowTPS(w)
	if !(ref.SystemCI[0] < 0) {
		t.Fatalf("reference system CI %v: expected to reach below 0 on this window", ref.SystemCI)
	}
	got := windowThroughput(w)
	lo, hi := got.SystemCI[0], got.SystemCI[1]
	t.Logf("reference %.1f %v; ratio %.1f [%.1f, %.1f]", ref.System, ref.SystemCI, got.System, lo, hi)
	if got.SystemReason != "" || !(0 < lo && lo <= got.System && got.System <= hi && hi-lo < 2*got.System) {
		t.Errorf("system %v [%v, %v] (%q): want an interval containing it, above 0, narrower than 2×", got.System, lo, hi,
			got.SystemReason)
	}
	pl, ph := got.PerUserCI[0], got.PerUserCI[1]
	if !(0 < pl && pl <= got.PerUser && got.PerUser <= ph) || math.Abs(got.PerUser-25) > 0.1 {
		t.Errorf("per-user %v [%v, %v], want ≈ 25 tok/s (TPOT 40 ms) inside its interval", got.PerUser, pl, ph)
	}
}

// Unsupported numbers are NaN with a reason: a zero issue span, too few
// super-passes, an interval reaching 0, a burst.
func TestThroughputUnsupported(t *testing.T) {
	zero := tpsSeries([]float64{1, 1, 1, 1}, map[int]bool{0: true, 1: true, 2: true, 3: true})
	for i := range zero {
		zero[i].FirstIssueNs, zero[i].LastIssueNs = 0, 0
	}
	noisy := tpsSeries([]float64{50, 52, 49, 51}, nil)
	noisy[0].SysTokens, noisy[1].SysTokens, noisy[2].SysTokens = 1, 250000, 1
	for _, c := range []struct {
		name   string
		tps    TPS
		system bool // the value itself is a number
		reason string
	}{
		{"zero span", windowThroughput(zero), false, "issue span is 0 s"},
		{"two super-passes", windowThroughput(tpsSeries([]float64{50, 52}, nil)), true, "a confidence interval needs at least 3"},
		{"noisy", windowThroughput(noisy), true, "the rate is not pinned down"},
		{"burst", burstTPS(), false, "issue burst"},
	} {
		if !math.IsNaN(c.tps.SystemCI[0]) || !math.IsNaN(c.tps.SystemCI[1]) || math.IsNaN(c.tps.System) == c.system ||
			!strings.Contains(c.tps.SystemReason, c.reason) {
			t.Errorf("%s: system %v %v (%q), want a null interval because %q", c.name, c.tps.System, c.tps.SystemCI,
				c.tps.SystemReason, c.reason)
		}
	}
	if b := burstTPS(); !math.IsNaN(b.PerUser) || !math.IsNaN(b.PerUserCI[0]) || b.PerUserReason == "" {
		t.Errorf("burst per-user %v %v %q", b.PerUser, b.PerUserCI, b.PerUserReason)
	}
}
