package tokenizer

import (
	"context"
	"unicode/utf8"
)

// continuation is what remains to match after the current group: the rest
// of an enclosing concatenation, then the continuation at index next
// (-1 for none). Continuations live in a matcher's stack, addressed by
// index, so matching allocates nothing once the stack has grown.
type continuation struct {
	items []*regexNode
	next  int
}

// A matcher holds the scratch space for matching; it is not safe for
// concurrent use, so each encoding goroutine has its own.
//
// Matching is bounded (regex_budget.go): every step decrements steps, the
// budget of the piece of text being split, which bounds every match in it;
// running out fails the split with err set, and so does a cancelled ctx,
// polled every pollEvery match attempts. After err is set every search
// returns no match at once.
type matcher struct {
	stack  []continuation
	pieces [2][]string // intermediate pieces of a sequence of Splits

	steps  int64 // left for the current piece; negative once exhausted
	budget int64 // the current piece's whole budget, for the error
	ctx    context.Context
	polls  int
	err    error
}

// reset prepares m for one text: no error, cancelled by ctx (nil: never).
func (m *matcher) reset(ctx context.Context) {
	m.ctx, m.err, m.polls = ctx, nil, pollEvery
}

func (m *matcher) push(items []*regexNode, next int) int {
	m.stack = append(m.stack, continuation{items: items, next: next})
	return len(m.stack) - 1
}

// matchAt returns the end of the match of re starting at pos, or -1. s is
// the whole piece being split: lookahead sees its end as the end of the
// text, as HF's sequential Splits do.
func (m *matcher) matchAt(re *pattern, s string, pos int) int {
	m.stack = m.stack[:0]
	end := -1
	r, _ := utf8.DecodeRuneInString(s[pos:])
	for i, alt := range re.alts {
		if r < 0x800 && !re.first[i].has(r) {
			continue
		}
		// Once out of steps every alternative fails at once.
		if end = m.matchItems(s, alt.subs, pos, -1); end >= 0 {
			break
		}
	}
	if m.steps < 0 {
		// Out of steps: whatever the unwinding returned is meaningless (a
		// negative lookahead that ran out reads as "did not match").
		m.err = &tooExpensiveError{source: re.source, steps: m.budget, bytes: len(s)}
		return -1
	}
	return end
}

func (m *matcher) matchItems(s string, items []*regexNode, pos int, k int) int {
	if m.steps--; m.steps < 0 {
		return -1
	}
	for {
		for len(items) > 0 {
			n := items[0]
			switch n.kind {
			case nodeClass:
				if n.min == 1 && n.max == 1 {
					if pos >= len(s) {
						return -1
					}
					w := n.class.width(s, pos)
					if w == 0 {
						return -1
					}
					pos += w
					items = items[1:]
					continue
				}
				if n.possessive {
					end, count := n.class.span(s, pos, n.max)
					if count < n.min {
						return -1
					}
					// A span's characters are steps too: a step must be O(1)
					// work for the budget to bound time.
					if m.steps -= int64(count); m.steps < 0 {
						return -1
					}
					pos = end
					items = items[1:]
					continue
				}
				return m.matchRepeat(s, n, items[1:], pos, k)
			case nodeAlt:
				frame := k
				if len(items) > 1 {
					frame = m.push(items[1:], k)
				}
				r := rune(-1)
				if pos < len(s) {
					r, _ = utf8.DecodeRuneInString(s[pos:])
				}
				for i, alt := range n.subs {
					if !n.nullables[i] && (r < 0 || r < 0x800 && !n.firsts[i].has(r)) {
						continue
					}
					if end := m.matchItems(s, alt.subs, pos, frame); end >= 0 {
						return end
					}
				}
				if frame != k {
					m.stack = m.stack[:frame]
				}
				return -1
			case nodeConcat:
				frame := m.push(items[1:], k)
				end := m.matchItems(s, n.subs, pos, frame)
				m.stack = m.stack[:frame]
				return end
			case nodeLookahead:
				matched := m.matchItems(s, n.subs[0].subs, pos, -1) >= 0
				if matched == n.negate {
					return -1
				}
				items = items[1:]
			}
		}
		if k < 0 {
			return pos
		}
		items, k = m.stack[k].items, m.stack[k].next
	}
}

// matchRepeat matches n greedily, then gives back one character at a time
// until the rest matches, as a backtracking engine does.
func (m *matcher) matchRepeat(s string, n *regexNode, rest []*regexNode, pos int, k int) int {
	end, count := n.class.span(s, pos, n.max)
	if count < n.min {
		return -1
	}
	// The span's count pays for the give-backs too: at most count of them,
	// each O(1) besides the sub-match it may start (a step of its own).
	if m.steps -= int64(count); m.steps < 0 {
		return -1
	}
	for {
		if len(rest) == 0 && k < 0 {
			return end
		}
		if m.restMayStart(n, s, end) {
			if e := m.matchItems(s, rest, end, k); e >= 0 {
				return e
			}
		}
		if count == n.min {
			return -1
		}
		_, w := utf8.DecodeLastRuneInString(s[pos:end])
		end -= w
		count--
	}
}

// restMayStart reports whether the items after n could match at pos; it
// only rules out code points below U+0800 absent from their first set.
func (m *matcher) restMayStart(n *regexNode, s string, pos int) bool {
	if n.restNullable {
		return true
	}
	if pos >= len(s) {
		return false
	}
	r := rune(s[pos])
	if r >= utf8.RuneSelf {
		r, _ = utf8.DecodeRuneInString(s[pos:])
	}
	return r >= 0x800 || n.restFirst.has(r)
}

// find returns the leftmost match of re in s at or after from, or -1, -1
// (also when the budget runs out or ctx is cancelled: m.err says so).
func (m *matcher) find(re *pattern, s string, from int) (start, end int) {
	for pos := from; pos < len(s); {
		r, w := utf8.DecodeRuneInString(s[pos:])
		if r >= 0x800 || re.anyFirst.has(r) {
			if m.polls--; m.polls <= 0 && m.poll() {
				return -1, -1
			}
			e := m.matchAt(re, s, pos)
			if e >= 0 {
				return pos, e // matchAt never succeeds with err set
			}
			if m.err != nil {
				return -1, -1
			}
		}
		pos += w
	}
	return -1, -1
}

// poll looks at the cancel signal; it reports whether matching must stop.
func (m *matcher) poll() bool {
	m.polls = pollEvery
	if m.ctx == nil {
		return false
	}
	select {
	case <-m.ctx.Done():
		m.err = context.Cause(m.ctx)
		return true
	default:
		return false
	}
}
