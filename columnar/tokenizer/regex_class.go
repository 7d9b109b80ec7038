package tokenizer

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// lowSet is a bitmap over the code points below U+0800.
type lowSet [0x800 / 64]uint64

func (s *lowSet) has(r rune) bool { return s[r>>6]&(1<<(r&63)) != 0 }

func (s *lowSet) union(t *lowSet) {
	for i := range s {
		s[i] |= t[i]
	}
}

// A runeClass is a set of code points: explicit ranges, code points having
// any of props, and code points lacking one of notProps, complemented when
// negate is set. Membership below U+0800 is precomputed as a bitmap since
// nearly all text in benchmarks and logs is there.
type runeClass struct {
	ranges   []runeRange
	props    property
	notProps []property
	negate   bool
	low      lowSet
	table    *propertyTable
}

func (c *runeClass) has(r rune) bool {
	if uint32(r) < 0x800 {
		return c.low[r>>6]&(1<<(r&63)) != 0
	}
	return c.slowHas(r)
}

// hasASCII is has for a byte below utf8.RuneSelf; it inlines, which
// matters because it runs for nearly every byte of English text and code.
func (c *runeClass) hasASCII(b byte) bool {
	return c.low[b>>6]&(1<<(b&63)) != 0
}

// span returns the end of the longest run of at most limit characters of
// c starting at s[pos] (limit < 0: unbounded), and the run's length in
// characters. It is the inner loop of every repetition.
func (c *runeClass) span(s string, pos, limit int) (end, count int) {
	end = pos
	for end < len(s) && count != limit {
		if b := s[end]; b < utf8.RuneSelf {
			if !c.hasASCII(b) {
				break
			}
			end++
		} else {
			r, w := utf8.DecodeRuneInString(s[end:])
			if !c.has(r) {
				break
			}
			end += w
		}
		count++
	}
	return end, count
}

// width returns the length of the character at s[pos] if it is in c, or 0.
func (c *runeClass) width(s string, pos int) int {
	if b := s[pos]; b < utf8.RuneSelf {
		if c.hasASCII(b) {
			return 1
		}
		return 0
	}
	r, w := utf8.DecodeRuneInString(s[pos:])
	if c.has(r) {
		return w
	}
	return 0
}

func (c *runeClass) slowHas(r rune) bool {
	p := c.table.of(r)
	in := p&c.props != 0
	for _, np := range c.notProps {
		if p&np == 0 {
			in = true
		}
	}
	if !in && len(c.ranges) > 0 && r <= c.ranges[len(c.ranges)-1].hi {
		_, found := slices.BinarySearchFunc(c.ranges, r, func(rr runeRange, r rune) int {
			switch {
			case rr.hi < r:
				return -1
			case rr.lo > r:
				return 1
			}
			return 0
		})
		in = found
	}
	return in != c.negate
}

func (c *runeClass) finish(t *propertyTable) {
	c.table = t
	slices.SortFunc(c.ranges, func(a, b runeRange) int { return int(a.lo - b.lo) })
	merged := c.ranges[:0]
	for _, r := range c.ranges {
		if n := len(merged); n > 0 && r.lo <= merged[n-1].hi+1 {
			merged[n-1].hi = max(merged[n-1].hi, r.hi)
			continue
		}
		merged = append(merged, r)
	}
	c.ranges = merged
	if c.props == 0 && len(c.notProps) == 0 {
		// Ranges only (every literal): set their bits below U+0800 directly,
		// so a pattern of many literals compiles in time linear in its size.
		for _, rr := range c.ranges {
			for r := rr.lo; r <= min(rr.hi, 0x7ff); r++ {
				c.low[r>>6] |= 1 << (r & 63)
			}
		}
		if c.negate {
			for i := range c.low {
				c.low[i] = ^c.low[i]
			}
		}
		return
	}
	for r := rune(0); r < 0x800; r++ {
		if c.slowHas(r) {
			c.low[r>>6] |= 1 << (r & 63)
		}
	}
}

// appendFolds adds the simple case folds of r; the shared tables' fold_x
// entries show Oniguruma folds exactly these (e.g. s, S and U+017F ſ).
func appendFolds(ranges []runeRange, r rune) []runeRange {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		ranges = append(ranges, runeRange{f, f})
	}
	return ranges
}

// disjointFromAll reports whether no code point is in c and in any of
// others. Outside the classes' explicit ranges membership depends only on
// a code point's property word, so it checks each distinct property word
// once, then the code points of the ranges one by one — unless they hold
// more than maxRangeCheck code points above U+0800, when it answers false
// (not disjoint: the safe answer).
func disjointFromAll(c *runeClass, others []*runeClass) bool {
	for _, o := range others {
		if highRangeSize(c)+highRangeSize(o) > maxRangeCheck {
			return false
		}
		for i := range c.low {
			if c.low[i]&o.low[i] != 0 {
				return false
			}
		}
		for _, p := range c.table.distinct {
			if c.hasProps(p) && o.hasProps(p) {
				return false
			}
		}
		for _, rs := range [][]runeRange{c.ranges, o.ranges} {
			for _, rr := range rs {
				for r := max(rr.lo, 0x800); r <= rr.hi; r++ {
					if c.slowHas(r) && o.slowHas(r) {
						return false
					}
				}
			}
		}
	}
	return true
}

// maxRangeCheck bounds the code points disjointFromAll examines one by
// one (the shared patterns' largest range is CJK's 20,902).
const maxRangeCheck = 1 << 16

// highRangeSize is the number of code points at or above U+0800 in c's
// explicit ranges.
func highRangeSize(c *runeClass) int {
	n := 0
	for _, rr := range c.ranges {
		if rr.hi >= 0x800 {
			n += int(rr.hi - max(rr.lo, 0x800) + 1)
		}
	}
	return n
}

// hasProps is membership of a code point with properties p that lies in
// none of the class's explicit ranges.
func (c *runeClass) hasProps(p property) bool {
	in := p&c.props != 0
	for _, np := range c.notProps {
		if p&np == 0 {
			in = true
		}
	}
	return in != c.negate
}
