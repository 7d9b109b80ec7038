package tokenizer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A pattern is a regular expression compiled for a Split pre-tokenizer.
//
// Hugging Face runs Split regexes with Oniguruma, whose semantics differ from
// Go's regexp in ways that change token ids: Oniguruma supports lookahead
// (every shared pattern ends in \s+(?!\S)), its \s is Unicode White_Space and
// its \p{..} tables are Unicode 16. This is a small backtracking engine with
// Oniguruma's leftmost-first alternation and greedy quantifiers, restricted
// to the constructs such patterns use:
//
//	literals, escaped punctuation, \r \n \t \f \v \a \e \xHH \x{H..} \uHHHH
//	classes [...] and [^...] with ranges, \p{X}, \P{X}, \s, \S inside
//	\p{X} \P{X} \s \S .
//	groups (...) (?:...) (?i:...), lookahead (?=...) (?!...)
//	quantifiers ? * + {n} {n,} {n,m} (greedy) on single characters,
//	and ? on groups
//
// Anything else — anchors, backreferences, lazy or possessive quantifiers,
// \w, \d, \b, nested classes — is rejected as unsupported rather than
// approximated, because an approximation would silently miscount.
type pattern struct {
	source string
	alts   []*regexNode // the top-level alternatives, each a nodeConcat
	// first[i] holds the code points below U+0800 that can begin a match
	// of alts[i]; anyFirst is their union. Skipping alternatives (and
	// positions) that cannot start with the next character is most of the
	// speed of matching.
	first    []lowSet
	anyFirst lowSet
}

// lowSet is a bitmap over the code points below U+0800.
type lowSet [0x800 / 64]uint64

func (s *lowSet) has(r rune) bool { return s[r>>6]&(1<<(r&63)) != 0 }

func (s *lowSet) union(t *lowSet) {
	for i := range s {
		s[i] |= t[i]
	}
}

// firstSet returns the code points below U+0800 that can begin a match of
// items, and whether items can match the empty string. Lookahead is
// skipped, which can only make the set larger, never wrong.
func firstSet(items []*regexNode) (set lowSet, nullable bool) {
	for _, n := range items {
		switch n.kind {
		case nodeClass:
			set.union(&n.class.low)
			if n.min > 0 {
				return set, false
			}
		case nodeAlt:
			anyNullable := false
			for _, sub := range n.subs {
				s, null := firstSet(sub.subs)
				set.union(&s)
				anyNullable = anyNullable || null
			}
			if !anyNullable {
				return set, false
			}
		case nodeConcat:
			s, null := firstSet(n.subs)
			set.union(&s)
			if !null {
				return set, false
			}
		}
	}
	return set, true
}

type nodeKind uint8

const (
	nodeClass     nodeKind = iota // one character of a class, repeated min..max times
	nodeAlt                       // alternatives, each a nodeConcat, tried in order
	nodeConcat                    // items matched one after another
	nodeLookahead                 // zero-width assertion on subs[0]
)

type regexNode struct {
	kind     nodeKind
	class    *runeClass
	min, max int // repetition of a class; max < 0 means unbounded
	// possessive: giving back characters of this repetition can never let
	// the rest match, so the matcher need not try (see markPossessive).
	possessive bool
	// For an alternation: the code points below U+0800 each alternative
	// can start with, and whether it can match the empty string; an
	// alternative that cannot start with the next character is skipped.
	firsts    []lowSet
	nullables []bool
	subs      []*regexNode
	negate    bool // negative lookahead
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
	for r := rune(0); r < 0x800; r++ {
		if c.slowHas(r) {
			c.low[r>>6] |= 1 << (r & 63)
		}
	}
}

func unsupportedRegex(src, what string) error {
	return fmt.Errorf("unsupported: regex %s in %q", what, src)
}

// compilePattern parses src with Oniguruma (Ruby syntax) meaning.
func compilePattern(src string) (*pattern, error) {
	p := &regexParser{src: src, table: unicodeProperties()}
	root, err := p.parseAlt(false)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.src) {
		return nil, unsupportedRegex(src, "unbalanced ')'")
	}
	if nullable(root) {
		// Split's handling of empty matches is not exercised by any known
		// tokenizer; refuse rather than guess.
		return nil, unsupportedRegex(src, "that can match the empty string")
	}
	re := &pattern{source: src, alts: root.subs}
	setAltFirsts(root)
	for _, alt := range root.subs {
		markPossessive(alt.subs, follow{})
		set, _ := firstSet(alt.subs)
		re.first = append(re.first, set)
		re.anyFirst.union(&set)
	}
	return re, nil
}

type regexParser struct {
	src   string
	pos   int
	table *propertyTable
}

func (p *regexParser) peek() (rune, int) {
	if p.pos >= len(p.src) {
		return -1, 0
	}
	return utf8.DecodeRuneInString(p.src[p.pos:])
}

func (p *regexParser) parseAlt(fold bool) (*regexNode, error) {
	alt := &regexNode{kind: nodeAlt}
	for {
		c, err := p.parseConcat(fold)
		if err != nil {
			return nil, err
		}
		alt.subs = append(alt.subs, c)
		if r, _ := p.peek(); r != '|' {
			return alt, nil
		}
		p.pos++
	}
}

func (p *regexParser) parseConcat(fold bool) (*regexNode, error) {
	concat := &regexNode{kind: nodeConcat}
	for {
		r, _ := p.peek()
		if r == -1 || r == '|' || r == ')' {
			return concat, nil
		}
		atom, err := p.parseAtom(fold)
		if err != nil {
			return nil, err
		}
		atom, err = p.parseQuantifier(atom)
		if err != nil {
			return nil, err
		}
		concat.subs = append(concat.subs, atom)
	}
}

func (p *regexParser) parseAtom(fold bool) (*regexNode, error) {
	r, w := p.peek()
	switch r {
	case '(':
		return p.parseGroup(fold)
	case '[':
		p.pos++
		c, err := p.parseClass(fold)
		if err != nil {
			return nil, err
		}
		return p.single(c), nil
	case '\\':
		p.pos++
		c, err := p.parseEscape(false, fold)
		if err != nil {
			return nil, err
		}
		return p.single(c), nil
	case '.':
		p.pos++
		return p.single(&runeClass{ranges: []runeRange{{'\n', '\n'}}, negate: true}), nil
	case '^', '$':
		return nil, unsupportedRegex(p.src, "anchor "+string(r))
	case '?', '*', '+':
		return nil, unsupportedRegex(p.src, "quantifier without operand")
	}
	p.pos += w
	return p.single(p.literal(r, fold)), nil
}

func (p *regexParser) single(c *runeClass) *regexNode {
	c.finish(p.table)
	return &regexNode{kind: nodeClass, class: c, min: 1, max: 1}
}

func (p *regexParser) literal(r rune, fold bool) *runeClass {
	c := &runeClass{ranges: []runeRange{{r, r}}}
	if fold {
		c.ranges = appendFolds(c.ranges, r)
	}
	return c
}

// appendFolds adds the simple case folds of r; the shared tables' fold_x
// entries show Oniguruma folds exactly these (e.g. s, S and U+017F ſ).
func appendFolds(ranges []runeRange, r rune) []runeRange {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		ranges = append(ranges, runeRange{f, f})
	}
	return ranges
}

func (p *regexParser) parseGroup(fold bool) (*regexNode, error) {
	p.pos++ // '('
	rest := p.src[p.pos:]
	var node *regexNode
	var err error
	switch {
	case strings.HasPrefix(rest, "?:"):
		p.pos += 2
		node, err = p.parseAlt(fold)
	case strings.HasPrefix(rest, "?i:"):
		p.pos += 3
		node, err = p.parseAlt(true)
	case strings.HasPrefix(rest, "?!"), strings.HasPrefix(rest, "?="):
		p.pos += 2
		var sub *regexNode
		sub, err = p.parseAlt(fold)
		node = &regexNode{kind: nodeLookahead, negate: rest[1] == '!', subs: []*regexNode{{kind: nodeConcat, subs: []*regexNode{sub}}}}
	case strings.HasPrefix(rest, "?"):
		return nil, unsupportedRegex(p.src, "group ("+truncate(rest, 4))
	default:
		// A capturing group; Split uses whole matches only.
		node, err = p.parseAlt(fold)
	}
	if err != nil {
		return nil, err
	}
	if r, _ := p.peek(); r != ')' {
		return nil, unsupportedRegex(p.src, "missing ')'")
	}
	p.pos++
	return node, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (p *regexParser) parseQuantifier(atom *regexNode) (*regexNode, error) {
	r, _ := p.peek()
	lo, hi := 0, 0
	switch r {
	case '?':
		lo, hi = 0, 1
		p.pos++
	case '*':
		lo, hi = 0, -1
		p.pos++
	case '+':
		lo, hi = 1, -1
		p.pos++
	case '{':
		var ok bool
		lo, hi, ok = p.parseInterval()
		if !ok {
			return atom, nil // Oniguruma reads a malformed interval as a literal '{'
		}
	default:
		return atom, nil
	}
	if next, _ := p.peek(); next == '?' || next == '+' || next == '*' || next == '{' {
		return nil, unsupportedRegex(p.src, "lazy, possessive or stacked quantifier")
	}
	if atom.kind == nodeClass && atom.min == 1 && atom.max == 1 {
		atom.min, atom.max = lo, hi
		return atom, nil
	}
	if lo == 0 && hi == 1 {
		return &regexNode{kind: nodeAlt, subs: []*regexNode{
			{kind: nodeConcat, subs: []*regexNode{atom}},
			{kind: nodeConcat},
		}}, nil
	}
	return nil, unsupportedRegex(p.src, "quantifier other than ? on a group")
}

// parseInterval reads {n}, {n,} or {n,m} at p.pos; on anything else it
// leaves p.pos alone and reports false.
func (p *regexParser) parseInterval() (lo, hi int, ok bool) {
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 0 {
		return 0, 0, false
	}
	body := p.src[p.pos+1 : p.pos+end]
	loStr, hiStr, comma := strings.Cut(body, ",")
	lo, err := strconv.Atoi(loStr)
	if err != nil || lo < 0 {
		return 0, 0, false
	}
	hi = lo
	if comma {
		if hiStr == "" {
			hi = -1
		} else if hi, err = strconv.Atoi(hiStr); err != nil || hi < lo {
			return 0, 0, false
		}
	}
	p.pos += end + 1
	return lo, hi, true
}

// parseClass reads a bracket expression after its '['.
func (p *regexParser) parseClass(fold bool) (*runeClass, error) {
	c := &runeClass{}
	if r, _ := p.peek(); r == '^' {
		c.negate = true
		p.pos++
	}
	first := true
	for {
		r, w := p.peek()
		switch {
		case r == -1:
			return nil, unsupportedRegex(p.src, "unterminated class")
		case r == ']' && !first:
			p.pos++
			if fold && (c.props != 0 || len(c.notProps) > 0) {
				return nil, unsupportedRegex(p.src, "property class under (?i)")
			}
			if fold {
				for _, rr := range slices.Clone(c.ranges) {
					if rr.hi-rr.lo > 0x1000 {
						return nil, unsupportedRegex(p.src, "large range under (?i)")
					}
					for x := rr.lo; x <= rr.hi; x++ {
						c.ranges = appendFolds(c.ranges, x)
					}
				}
			}
			return c, nil
		case r == '[':
			return nil, unsupportedRegex(p.src, "nested class")
		case r == '&' && strings.HasPrefix(p.src[p.pos:], "&&"):
			return nil, unsupportedRegex(p.src, "class intersection")
		}
		first = false
		var lo rune
		if r == '\\' {
			p.pos++
			esc, err := p.parseEscape(true, false)
			if err != nil {
				return nil, err
			}
			if len(esc.ranges) != 1 || esc.props != 0 || len(esc.notProps) > 0 || esc.negate {
				c.props |= esc.props
				c.notProps = append(c.notProps, esc.notProps...)
				if esc.negate {
					return nil, unsupportedRegex(p.src, "negated escape in class")
				}
				c.ranges = append(c.ranges, esc.ranges...)
				continue
			}
			lo = esc.ranges[0].lo
		} else {
			p.pos += w
			lo = r
		}
		hi := lo
		if strings.HasPrefix(p.src[p.pos:], "-") && !strings.HasPrefix(p.src[p.pos:], "-]") && p.pos+1 < len(p.src) {
			p.pos++
			r2, w2 := p.peek()
			if r2 == '\\' {
				p.pos++
				esc, err := p.parseEscape(true, false)
				if err != nil {
					return nil, err
				}
				if len(esc.ranges) != 1 || esc.props != 0 || len(esc.notProps) > 0 || esc.ranges[0].lo != esc.ranges[0].hi {
					return nil, unsupportedRegex(p.src, "class range ending in a class")
				}
				hi = esc.ranges[0].lo
			} else {
				p.pos += w2
				hi = r2
			}
			if hi < lo {
				return nil, unsupportedRegex(p.src, "reversed class range")
			}
		}
		c.ranges = append(c.ranges, runeRange{lo, hi})
	}
}

// parseEscape reads an escape after its backslash. A single code point comes
// back as a class holding one one-element range.
func (p *regexParser) parseEscape(inClass, fold bool) (*runeClass, error) {
	r, w := p.peek()
	if r == -1 {
		return nil, unsupportedRegex(p.src, "trailing backslash")
	}
	p.pos += w
	lit := func(x rune) *runeClass {
		if inClass {
			return &runeClass{ranges: []runeRange{{x, x}}}
		}
		return p.literal(x, fold)
	}
	switch r {
	case 's':
		return &runeClass{props: propSpace}, nil
	case 'S':
		return &runeClass{notProps: []property{propSpace}}, nil
	case 'p', 'P':
		if !strings.HasPrefix(p.src[p.pos:], "{") {
			return nil, unsupportedRegex(p.src, "\\"+string(r)+" without braces")
		}
		end := strings.IndexByte(p.src[p.pos:], '}')
		if end < 0 {
			return nil, unsupportedRegex(p.src, "unterminated \\p{")
		}
		name := p.src[p.pos+1 : p.pos+end]
		p.pos += end + 1
		prop, ok := propertyNames[name]
		if !ok {
			return nil, unsupportedRegex(p.src, "property \\p{"+name+"}")
		}
		if r == 'P' {
			return &runeClass{notProps: []property{prop}}, nil
		}
		return &runeClass{props: prop}, nil
	case 'r':
		return lit('\r'), nil
	case 'n':
		return lit('\n'), nil
	case 't':
		return lit('\t'), nil
	case 'f':
		return lit('\f'), nil
	case 'v':
		return lit('\v'), nil
	case 'a':
		return lit('\a'), nil
	case 'e':
		return lit(0x1B), nil
	case 'x', 'u':
		x, err := p.parseHexEscape(r)
		if err != nil {
			return nil, err
		}
		return lit(x), nil
	}
	if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
		return nil, unsupportedRegex(p.src, "escape \\"+string(r))
	}
	return lit(r), nil
}

func (p *regexParser) parseHexEscape(kind rune) (rune, error) {
	rest := p.src[p.pos:]
	var digits string
	switch {
	case kind == 'x' && strings.HasPrefix(rest, "{"):
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return 0, unsupportedRegex(p.src, "unterminated \\x{")
		}
		digits = rest[1:end]
		p.pos += end + 1
	case kind == 'x':
		n := 0
		for n < 2 && n < len(rest) && isHexDigit(rest[n]) {
			n++
		}
		digits = rest[:n]
		p.pos += n
	default:
		if len(rest) < 4 {
			return 0, unsupportedRegex(p.src, "short \\u escape")
		}
		digits = rest[:4]
		p.pos += 4
	}
	v, err := strconv.ParseUint(digits, 16, 32)
	if err != nil || v > unicode.MaxRune {
		return 0, unsupportedRegex(p.src, "hex escape "+digits)
	}
	return rune(v), nil
}

func isHexDigit(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

func nullable(n *regexNode) bool {
	switch n.kind {
	case nodeClass:
		return n.min == 0
	case nodeAlt:
		for _, s := range n.subs {
			if nullable(s) {
				return true
			}
		}
		return false
	case nodeConcat:
		for _, s := range n.subs {
			if !nullable(s) {
				return false
			}
		}
		return true
	}
	return true // lookahead consumes nothing
}

// setAltFirsts fills the first sets of every alternation under n.
func setAltFirsts(n *regexNode) {
	for _, sub := range n.subs {
		setAltFirsts(sub)
	}
	if n.kind != nodeAlt {
		return
	}
	n.firsts = make([]lowSet, len(n.subs))
	n.nullables = make([]bool, len(n.subs))
	for i, sub := range n.subs {
		n.firsts[i], n.nullables[i] = firstSet(sub.subs)
	}
}

// follow is what may come right after a part of a pattern: a match
// continuing with one of classes, or the match ending. unknown marks a
// lookahead, after which nothing is assumed.
type follow struct {
	classes []*runeClass
	unknown bool
}

// markPossessive sets regexNode.possessive on the repetitions of items
// whose class shares no code point with anything that can follow them.
// Backtracking into such a repetition cannot help: each character given
// back is one the rest cannot start with, and ending the match there would
// have succeeded at the longer position first. The matcher then runs
// these repetitions as plain loops, which is most of every shared pattern.
func markPossessive(items []*regexNode, after follow) {
	f := after
	for i := len(items) - 1; i >= 0; i-- {
		n := items[i]
		switch n.kind {
		case nodeClass:
			n.possessive = !f.unknown && disjointFromAll(n.class, f.classes)
			if n.min > 0 {
				f = follow{classes: []*runeClass{n.class}}
			} else {
				f = follow{classes: append([]*runeClass{n.class}, f.classes...), unknown: f.unknown}
			}
		case nodeAlt:
			var next follow
			for _, sub := range n.subs {
				markPossessive(sub.subs, f)
				sf := firstFollow(sub.subs, f)
				next.classes = append(next.classes, sf.classes...)
				next.unknown = next.unknown || sf.unknown
			}
			f = next
		case nodeConcat:
			markPossessive(n.subs, f)
			f = firstFollow(n.subs, f)
		case nodeLookahead:
			markPossessive(n.subs[0].subs, follow{})
			f.unknown = true
		}
	}
}

// firstFollow is what can come first when matching items then after.
func firstFollow(items []*regexNode, after follow) follow {
	var f follow
	for _, n := range items {
		switch n.kind {
		case nodeClass:
			f.classes = append(f.classes, n.class)
			if n.min > 0 {
				return f
			}
			continue
		case nodeLookahead:
			f.unknown = true
			continue
		}
		var inner follow
		var subs [][]*regexNode
		if n.kind == nodeAlt {
			for _, sub := range n.subs {
				subs = append(subs, sub.subs)
			}
		} else {
			subs = [][]*regexNode{n.subs}
		}
		nullable := false
		for _, sub := range subs {
			sf := firstFollow(sub, follow{})
			inner.classes = append(inner.classes, sf.classes...)
			inner.unknown = inner.unknown || sf.unknown
			nullable = nullable || nullableItems(sub)
		}
		f.classes = append(f.classes, inner.classes...)
		f.unknown = f.unknown || inner.unknown
		if !nullable {
			return f
		}
	}
	f.classes = append(f.classes, after.classes...)
	f.unknown = f.unknown || after.unknown
	return f
}

func nullableItems(items []*regexNode) bool {
	return nullable(&regexNode{kind: nodeConcat, subs: items})
}

// disjointFromAll reports whether no code point is in c and in any of
// others. Outside the classes' explicit ranges membership depends only on
// a code point's property word, so it checks each distinct property word
// once, then the code points of the ranges one by one.
func disjointFromAll(c *runeClass, others []*runeClass) bool {
	for _, o := range others {
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
type matcher struct {
	stack  []continuation
	pieces [2][]string // intermediate pieces of a sequence of Splits
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
	r, _ := utf8.DecodeRuneInString(s[pos:])
	for i, alt := range re.alts {
		if r < 0x800 && !re.first[i].has(r) {
			continue
		}
		if end := m.matchItems(s, alt.subs, pos, -1); end >= 0 {
			return end
		}
	}
	return -1
}

func (m *matcher) matchItems(s string, items []*regexNode, pos int, k int) int {
	for {
		for len(items) > 0 {
			n := items[0]
			switch n.kind {
			case nodeClass:
				if n.min == 1 && n.max == 1 {
					if pos >= len(s) {
						return -1
					}
					r, w := utf8.DecodeRuneInString(s[pos:])
					if !n.class.has(r) {
						return -1
					}
					pos += w
					items = items[1:]
					continue
				}
				if n.possessive {
					end, count := pos, 0
					for (n.max < 0 || count < n.max) && end < len(s) {
						r, w := utf8.DecodeRuneInString(s[end:])
						if !n.class.has(r) {
							break
						}
						end += w
						count++
					}
					if count < n.min {
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
	end, count := pos, 0
	for (n.max < 0 || count < n.max) && end < len(s) {
		r, w := utf8.DecodeRuneInString(s[end:])
		if !n.class.has(r) {
			break
		}
		end += w
		count++
	}
	if count < n.min {
		return -1
	}
	for {
		if len(rest) == 0 && k < 0 {
			return end
		}
		if e := m.matchItems(s, rest, end, k); e >= 0 {
			return e
		}
		if count == n.min {
			return -1
		}
		_, w := utf8.DecodeLastRuneInString(s[pos:end])
		end -= w
		count--
	}
}

// find returns the leftmost match of re in s at or after from, or -1, -1.
func (m *matcher) find(re *pattern, s string, from int) (start, end int) {
	for pos := from; pos < len(s); {
		r, w := utf8.DecodeRuneInString(s[pos:])
		if r >= 0x800 || re.anyFirst.has(r) {
			if e := m.matchAt(re, s, pos); e >= 0 {
				return pos, e
			}
		}
		pos += w
	}
	return -1, -1
}
