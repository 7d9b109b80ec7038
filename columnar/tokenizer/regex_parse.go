package tokenizer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type regexParser struct {
	src   string
	pos   int
	depth int // groups open at pos
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

func (p *regexParser) parseGroup(fold bool) (*regexNode, error) {
	p.pos++ // '('
	if p.depth++; p.depth > maxGroupDepth {
		return nil, unsupportedRegex(p.src, fmt.Sprintf("groups nested deeper than %d", maxGroupDepth))
	}
	defer func() { p.depth-- }()
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
		prop, ok := propertyNamed(name)
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
