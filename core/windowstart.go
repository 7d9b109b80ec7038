package core

import (
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Where the reported window starts: the first plateau passing the
// min-duration gate often begins a super-pass or two before the series has
// settled (super-passes 2–3 % below the level are inside the 5 % band), so
// steadysweep trims a settling head off it. Two rules: the MSER knee
// (deviation D12) and the head test (deviation D16). The reference reports
// the plateau as it is.

// WindowStart names the rule trimming the reported window's settling head.
type WindowStart string

// The window-start rules.
const (
	// WindowStartMSER trims to the MSER start when that at least halves
	// the standard error of the per-super-pass TPOT means (D12).
	WindowStartMSER WindowStart = "mser"
	// WindowStartHead drops leading super-passes whose TPOT mean is off
	// the rest of the window by more than its own noise (D16).
	WindowStartHead WindowStart = "head"
)

// WindowStarts returns the rules in documentation order.
func WindowStarts() []WindowStart { return []WindowStart{WindowStartMSER, WindowStartHead} }

func (w WindowStart) String() string { return string(w) }

// Valid reports whether w is one of WindowStarts.
func (w WindowStart) Valid() bool { _, err := ParseWindowStart(string(w)); return err == nil }

// ParseWindowStart returns the WindowStart spelled s.
func ParseWindowStart(s string) (WindowStart, error) {
	return parseEnum("window_start", s, WindowStarts())
}

// trimmedStart is the start of the reported window [lo, hi) (post-relative)
// under p.WindowStart, and whether the rule moved it: a trimmed start is
// kept only when the trimmed window keeps the min-duration verdict of the
// untrimmed one (or the gate is off). window is the min-duration record of
// the window that results.
func (a *analysis) trimmedStart(lo, hi int, untrimmed ShortWindow) (start int, window ShortWindow, trimmed bool) {
	p, pct := a.p, a.res.pct
	s := lo
	switch p.WindowStart {
	case WindowStartHead:
		s = headTrim(pct, lo, hi, p.MinTrendN, p.HeadTrimZ, p.HeadTrimMinRel, p.HeadTrimMaxFrac)
	default:
		mser, full, best := a.memo.mserStart(pct, lo, hi, p.MinTrendN, a.stop)
		if best <= mserKnee*full {
			s = mser
		}
	}
	if s <= lo {
		return lo, untrimmed, false
	}
	if w, ok := a.keepsVerdict(s, hi, untrimmed); ok {
		return s, w, true
	}
	return lo, untrimmed, false
}

// trimmedEnd is trimmedStart at the window's end (issue 29: symmetric
// trimming, under WindowStartHead only): the head test read from the end
// (tailTrim), kept only when the trimmed window keeps the min-duration
// verdict of untrimmed (or the gate is off).
func (a *analysis) trimmedEnd(lo, hi int, untrimmed ShortWindow) (end int, window ShortWindow, trimmed bool) {
	p := a.p
	if p.WindowStart != WindowStartHead {
		return hi, untrimmed, false
	}
	e := tailTrim(a.res.pct, lo, hi, p.MinTrendN, p.HeadTrimZ, p.HeadTrimMinRel, p.HeadTrimMaxFrac)
	if e >= hi {
		return hi, untrimmed, false
	}
	if w, ok := a.keepsVerdict(lo, e, untrimmed); ok {
		return e, w, true
	}
	return hi, untrimmed, false
}

// keepsVerdict returns the min-duration record of the window [lo, hi)
// (post-relative) and whether it keeps the verdict of untrimmed (always,
// with the gate off).
func (a *analysis) keepsVerdict(lo, hi int, untrimmed ShortWindow) (ShortWindow, bool) {
	w := a.memo.minDuration(a.res.post, a.res.pct, lo, hi, minDurationOf(a.p))
	return w, w.IsShort == untrimmed.IsShort || !a.p.MinDuration
}

// mserKnee is how much MSER must cut the standard error for the trim to be
// applied: a genuine transient at the window's head (bias), not noise.
const mserKnee = 0.5

// headTrim is the head test over the window [lo, hi) (post-relative): with
// m the per-super-pass TPOT means of its super-passes with TPOT (n of them)
// and σ = stats.SuccessiveDiffSD(m) their super-pass-to-super-pass noise,
//
//	k = 0
//	while k < ⌊n·maxFrac⌋ and n − k − 1 ≥ minN and
//	      |m_k − median(m_{k+1:})| > max(z·σ, minRel·median(m_{k+1:})):
//	    k++
//
// and the window starts at the super-pass of m_k. A settling head sits on
// one side of the level, a noisy one on either: z robust SDs tell them
// apart, and minRel keeps a smooth series (tiny σ) from being trimmed for
// a difference no one would see. Fewer than minN + 1 means trim nothing.
func headTrim(pct []*spPercentiles, lo, hi, minN int, z, minRel, maxFrac float64) int {
	idx, m := tpotMeans(pct, lo, hi)
	if len(m) < minN+1 {
		return lo
	}
	return idx[headCount(m, minN, z, minRel, maxFrac)]
}

// tailTrim is headTrim at the window's other edge (issue 29: symmetric
// trimming): the same test on the means read from the end, so a transient
// the window ends in (a dip, a spike, the onset of a step one super-pass
// in) is dropped as a settling head is. It returns the new end (exclusive).
func tailTrim(pct []*spPercentiles, lo, hi, minN int, z, minRel, maxFrac float64) int {
	idx, m := tpotMeans(pct, lo, hi)
	if len(m) < minN+1 {
		return hi
	}
	for i, j := 0, len(m)-1; i < j; i, j = i+1, j-1 {
		m[i], m[j] = m[j], m[i]
	}
	k := headCount(m, minN, z, minRel, maxFrac)
	if k == 0 {
		return hi
	}
	return idx[len(m)-k-1] + 1
}

// tpotMeans are the per-super-pass TPOT means of the super-passes of
// [lo, hi) that have TPOT, and their indices.
func tpotMeans(pct []*spPercentiles, lo, hi int) (idx []int, m []float64) {
	for i := lo; i < hi; i++ {
		if pct[i].ok[mTPOTP50] {
			idx = append(idx, i)
			m = append(m, pct[i].tpotMean)
		}
	}
	return idx, m
}

// headCount is the head test's count of leading values of m to drop
// (headTrim's loop; m has at least minN + 1 values).
func headCount(m []float64, minN int, z, minRel, maxFrac float64) int {
	n := len(m)
	sd := stats.SuccessiveDiffSD(m)
	maxK := int(math.Floor(float64(n) * maxFrac))
	k := 0
	for k < maxK && n-k-1 >= minN {
		rest := stats.Median(m[k+1:])
		if !(math.Abs(m[k]-rest) > math.Max(z*sd, minRel*rest)) {
			break
		}
		k++
	}
	return k
}
