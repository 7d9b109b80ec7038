package tokenizer

import (
	"fmt"
	"strings"
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
	// restFirst and restNullable describe the items after this one in its
	// concatenation; backtracking skips positions the rest cannot start at.
	restFirst    lowSet
	restNullable bool
	subs         []*regexNode
	negate       bool // negative lookahead
}

func unsupportedRegex(src, what string) error {
	if len(what) > 60 { // a property name or hex digits can be any length
		what = strings.ToValidUTF8(what[:60], "") + "…"
	}
	return fmt.Errorf("unsupported: regex %s in %s", what, quoteShort(src))
}

// compilePattern parses src with Oniguruma (Ruby syntax) meaning. A pattern
// that is too long, too deeply nested or shaped for catastrophic
// backtracking (regex_budget.go) is refused: the first two as unsupported,
// the last with ErrPatternTooExpensive.
func compilePattern(src string) (*pattern, error) {
	re, root, err := compileUnchecked(src)
	if err != nil {
		return nil, err
	}
	if w := nodeWidth(root); w > maxBacktrackWidth {
		return nil, fmt.Errorf("%w: Split pattern %s could try %.3g ways to match at one position (more than %d): its alternatives or optional parts overlap",
			ErrPatternTooExpensive, quoteShort(src), w, maxBacktrackWidth)
	}
	return re, nil
}

// compileUnchecked is compilePattern without the backtracking-width check
// (tests use it to show the matching budget alone bounds what the check
// refuses); it also returns the root alternation.
func compileUnchecked(src string) (*pattern, *regexNode, error) {
	if len(src) > maxPatternBytes {
		return nil, nil, unsupportedRegex(src, fmt.Sprintf("longer than %d bytes", maxPatternBytes))
	}
	p := &regexParser{src: src, table: unicodeProperties()}
	root, err := p.parseAlt(false)
	if err != nil {
		return nil, nil, err
	}
	if p.pos < len(p.src) {
		return nil, nil, unsupportedRegex(src, "unbalanced ')'")
	}
	if nullable(root) {
		// Split's handling of empty matches is not exercised by any known
		// tokenizer; refuse rather than guess.
		return nil, nil, unsupportedRegex(src, "that can match the empty string")
	}
	re := &pattern{source: src, alts: root.subs}
	setAltFirsts(root)
	for _, alt := range root.subs {
		markPossessive(alt.subs, follow{})
		set, _ := firstSet(alt.subs)
		re.first = append(re.first, set)
		re.anyFirst.union(&set)
	}
	return re, root, nil
}
