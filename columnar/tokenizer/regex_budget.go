package tokenizer

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrPatternTooExpensive is the error of a Split pattern whose matching
// would take exponential (or super-linear) time: found at load time by the
// shape of the pattern (backtrackWidth), or while matching by the step
// budget. A backtracking engine cannot match such a pattern in bounded
// time, and an archive can ship any tokenizer.json, so it fails instead of
// hanging. The 5 shared tokenizers are far inside both bounds.
var ErrPatternTooExpensive = errors.New("tokenizer pattern too expensive")

// Bounds on what a pattern may cost.
const (
	// maxPatternBytes bounds a Split pattern's source (the shared ones are
	// 14–297 bytes); the compiled form takes ~1 KB per atom.
	maxPatternBytes = 64 << 10
	// maxGroupDepth bounds group nesting (the shared patterns nest 2 deep):
	// parsing and analysis recurse once per level.
	maxGroupDepth = 32
	// maxBacktrackWidth bounds backtrackWidth at load time. The shared
	// patterns score 1–61; (?:[^!]|[^!])?×25 + "!|[\s\S]" scores 8.5e11.
	maxBacktrackWidth = 1 << 20
	// repeatWidth is what a non-possessive unbounded repetition counts in
	// backtrackWidth: it can give back any number of characters, so k of
	// them in a row cost O(len^k).
	repeatWidth = 16

	// Matching budget, in steps (one step: entering a sub-match, giving
	// back one character of a repetition, or one character of a span; each
	// is O(1) work, ~5 ns). Splitting a piece s may take
	// pieceBaseSteps + pieceStepsPerByte·len(s) steps, every match in it
	// together: a linear-time pattern takes a few steps a byte (the shared
	// ones at most 8.6 on texts built to be their slowest); the exponential one above
	// needs 3^8 steps on 8 bytes and 3^25 on 25, and fails within
	// milliseconds.
	pieceBaseSteps    = 1 << 22
	pieceStepsPerByte = 64
	// pollEvery is the number of match attempts between two looks at the
	// cancel signal (a budget-bound match takes at most ~5 ms, so a
	// cancelled count returns within a few tens of milliseconds).
	pollEvery = 256
)

// tooExpensiveError describes a budget exhausted while matching.
type tooExpensiveError struct {
	source string
	steps  int64
	bytes  int
}

func (e *tooExpensiveError) Error() string {
	return fmt.Sprintf("%v: Split pattern %s took more than %d steps on a %d-byte piece of text",
		ErrPatternTooExpensive, quoteShort(e.source), e.steps, e.bytes)
}

func (e *tooExpensiveError) Unwrap() error { return ErrPatternTooExpensive }

// quoteShort quotes a pattern for a message, cut to 80 bytes.
func quoteShort(src string) string {
	if len(src) > 80 {
		return fmt.Sprintf("%q… (%d bytes)", strings.ToValidUTF8(src[:80], ""), len(src))
	}
	return fmt.Sprintf("%q", src)
}

// backtrackWidth estimates how many ways the matcher may try to match
// items at one position before giving up: the product over a
// concatenation, the sum over alternatives that can start alike (one of
// them nullable, or their first characters overlapping), the maximum over
// alternatives that cannot, and for a repetition the number of lengths it
// may give back (repeatWidth when unbounded; 1 when possessive or of fixed
// length). It saturates at +Inf. A large width is what catastrophic
// backtracking needs: (?:a|a)?×n tries 3^n ways, a?×n a×n 2^n.
func backtrackWidth(items []*regexNode) float64 {
	w := 1.0
	for _, n := range items {
		w *= nodeWidth(n)
		if math.IsInf(w, 1) {
			break
		}
	}
	return w
}

func nodeWidth(n *regexNode) float64 {
	switch n.kind {
	case nodeClass:
		if n.possessive || n.min == n.max {
			return 1
		}
		if n.max < 0 {
			return repeatWidth
		}
		return math.Min(float64(n.max-n.min+1), repeatWidth)
	case nodeConcat:
		return backtrackWidth(n.subs)
	case nodeLookahead:
		return backtrackWidth(n.subs[0].subs)
	case nodeAlt:
		sum, most := 0.0, 0.0
		for _, sub := range n.subs {
			w := backtrackWidth(sub.subs)
			sum += w
			most = math.Max(most, w)
		}
		if alternativesOverlap(n) {
			return sum
		}
		return most
	}
	return 1
}

// alternativesOverlap reports whether two alternatives of n may start at
// the same character: one is nullable, their first sets below U+0800
// intersect, or both may start above it.
func alternativesOverlap(n *regexNode) bool {
	var seen lowSet
	high := false
	for i, sub := range n.subs {
		if n.nullables[i] {
			if len(n.subs) > 1 {
				return true
			}
			continue
		}
		set := &n.firsts[i]
		for j := range seen {
			if seen[j]&set[j] != 0 {
				return true
			}
		}
		seen.union(set)
		if mayStartHigh(sub.subs) {
			if high {
				return true
			}
			high = true
		}
	}
	return false
}

// mayStartHigh reports whether items may begin with a code point at or
// above U+0800 (conservatively: any class with properties, a negation or
// a range reaching there).
func mayStartHigh(items []*regexNode) bool {
	for _, n := range items {
		switch n.kind {
		case nodeClass:
			c := n.class
			if c.negate || c.props != 0 || len(c.notProps) > 0 || len(c.ranges) > 0 && c.ranges[len(c.ranges)-1].hi >= 0x800 {
				return true
			}
			if n.min > 0 {
				return false
			}
		case nodeAlt:
			null := false
			for i, sub := range n.subs {
				if mayStartHigh(sub.subs) {
					return true
				}
				null = null || n.nullables[i]
			}
			if !null {
				return false
			}
		case nodeConcat:
			if mayStartHigh(n.subs) {
				return true
			}
			if !nullable(n) {
				return false
			}
		}
	}
	return false
}

func pieceBudget(n int) int64 { return pieceBaseSteps + pieceStepsPerByte*int64(n) }
