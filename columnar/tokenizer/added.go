package tokenizer

import (
	"sort"
	"unicode"
	"unicode/utf8"
)

// addedToken is an entry of tokenizer.json's added_tokens.
type addedToken struct {
	ID         uint32 `json:"id"`
	Content    string `json:"content"`
	SingleWord bool   `json:"single_word"`
	LStrip     bool   `json:"lstrip"`
	RStrip     bool   `json:"rstrip"`
	Normalized bool   `json:"normalized"`
	Special    bool   `json:"special"`
}

// addedMatcher finds added tokens in text the way HF's AddedVocabulary
// does: leftmost-longest, non-overlapping (Aho-Corasick with
// MatchKind::LeftmostLongest), special tokens included even with
// add_special_tokens=false. It is a byte trie; added tokens are few and
// nearly all start with '<', so scanning only at possible first bytes is
// cheaper than a full automaton.
type addedMatcher struct {
	nodes     []trieNode
	firstByte [256]bool
	tokens    []addedToken // by trie terminal
}

type trieNode struct {
	edges    []trieEdge
	terminal int32 // index into tokens, or -1
}

type trieEdge struct {
	b  byte
	to int32
}

func newAddedMatcher(tokens []addedToken) *addedMatcher {
	m := &addedMatcher{nodes: []trieNode{{terminal: -1}}}
	for _, t := range tokens {
		if t.Content == "" {
			continue
		}
		node := int32(0)
		for i := 0; i < len(t.Content); i++ {
			node = m.child(node, t.Content[i])
		}
		if m.nodes[node].terminal < 0 {
			m.nodes[node].terminal = int32(len(m.tokens))
			m.tokens = append(m.tokens, t)
		} else {
			// Same content twice: HF's map from content keeps the later id.
			m.tokens[m.nodes[node].terminal] = t
		}
		m.firstByte[t.Content[0]] = true
	}
	for i := range m.nodes {
		edges := m.nodes[i].edges
		sort.Slice(edges, func(a, b int) bool { return edges[a].b < edges[b].b })
	}
	return m
}

func (m *addedMatcher) child(node int32, b byte) int32 {
	for _, e := range m.nodes[node].edges {
		if e.b == b {
			return e.to
		}
	}
	to := int32(len(m.nodes))
	m.nodes = append(m.nodes, trieNode{terminal: -1})
	m.nodes[node].edges = append(m.nodes[node].edges, trieEdge{b: b, to: to})
	return to
}

func (m *addedMatcher) empty() bool { return m == nil || len(m.tokens) == 0 }

// longestAt returns the end of the longest token starting at pos and its
// index, or -1.
func (m *addedMatcher) longestAt(s string, pos int) (end int, token int32) {
	end, token = -1, -1
	node := int32(0)
	for i := pos; i < len(s); i++ {
		edges := m.nodes[node].edges
		next := int32(-1)
		for _, e := range edges {
			if e.b == s[i] {
				next = e.to
				break
			}
			if e.b > s[i] {
				break
			}
		}
		if next < 0 {
			break
		}
		node = next
		if t := m.nodes[node].terminal; t >= 0 {
			end, token = i+1, t
		}
	}
	return end, token
}

// next finds the next accepted added token in s at or after from, where
// prevEnd is the end of the previous accepted token (lstrip never reaches
// before it). It returns the token's id and the span it claims, which
// lstrip/rstrip widen over adjacent whitespace.
func (m *addedMatcher) next(s string, from, prevEnd int) (start, end int, id uint32, ok bool) {
	for pos := from; pos < len(s); pos++ {
		if !m.firstByte[s[pos]] {
			continue
		}
		e, ti := m.longestAt(s, pos)
		if ti < 0 {
			continue
		}
		t := &m.tokens[ti]
		if t.SingleWord && (endsWithWordChar(s[:pos]) || startsWithWordChar(s[e:])) {
			// Discarded, but the matcher has consumed it, as HF's
			// find_iter has.
			pos = e - 1
			continue
		}
		start, end = pos, e
		if t.LStrip {
			start = max(leadingSpaceStart(s[:pos]), prevEnd)
		}
		if t.RStrip {
			end += trailingSpaceLen(s[e:])
		}
		return start, end, t.ID, true
	}
	return 0, 0, 0, false
}

// isWordChar approximates the Rust regex crate's Unicode \w (alphabetic,
// marks, decimal numbers, connector punctuation, join controls) used by
// HF's single_word check; none of the shared tokenizers sets single_word.
func isWordChar(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) ||
		unicode.Is(unicode.Pc, r) || r == 0x200C || r == 0x200D
}

func endsWithWordChar(s string) bool {
	r, w := utf8.DecodeLastRuneInString(s)
	return w > 0 && isWordChar(r)
}

func startsWithWordChar(s string) bool {
	r, w := utf8.DecodeRuneInString(s)
	return w > 0 && isWordChar(r)
}

// leadingSpaceStart returns where the run of whitespace ending s begins.
func leadingSpaceStart(s string) int {
	for len(s) > 0 {
		r, w := utf8.DecodeLastRuneInString(s)
		if !unicode.IsSpace(r) {
			break
		}
		s = s[:len(s)-w]
	}
	return len(s)
}

// trailingSpaceLen returns the length of the whitespace run starting s.
func trailingSpaceLen(s string) int {
	n := 0
	for n < len(s) {
		r, w := utf8.DecodeRuneInString(s[n:])
		if !unicode.IsSpace(r) {
			break
		}
		n += w
	}
	return n
}
