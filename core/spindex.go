package core

// Super-pass coordinates. The detector computes over the post-warmup
// trajectories, indexed from the first super-pass after the warmup
// (plain ints: "relative"); every record it returns and every output
// counts from the run's first super-pass, warmup included ("absolute").
// SPIndex and SPRange are the absolute ones, so a relative index cannot
// be stored in a record, nor an absolute one index a trajectory, without
// a conversion the code spells out (absSP, absRange).

// SPIndex is an absolute super-pass index: 0 is the run's first
// super-pass, warmup included.
type SPIndex int

// SPRange is a half-open span [Lo, Hi) of absolute super-passes. Outputs
// report its first and Last (inclusive) super-pass.
type SPRange struct{ Lo, Hi SPIndex }

// NoSPIndex is the index of no super-pass.
const NoSPIndex SPIndex = -1

// NoSPRange is the range of no window: both bounds −1.
var NoSPRange = SPRange{NoSPIndex, NoSPIndex}

// Ok reports a range that is a window (NoSPRange is not).
func (r SPRange) Ok() bool { return r.Lo >= 0 }

// Last is the range's last super-pass, the inclusive end the text, the
// rows, the JSON and the submission block report.
func (r SPRange) Last() SPIndex { return r.Hi - 1 }

// Len is the number of super-passes in the range.
func (r SPRange) Len() int { return int(r.Hi - r.Lo) }

// absSP is the absolute index of post-warmup index i after warmup
// super-passes.
func absSP(warmup, i int) SPIndex { return SPIndex(warmup + i) }

// absRange is the absolute range of the post-warmup span [lo, hi) after
// warmup super-passes.
func absRange(warmup, lo, hi int) SPRange { return SPRange{absSP(warmup, lo), absSP(warmup, hi)} }
