package tokenizer

import (
	"slices"
	"sync"
	"unicode/utf8"
)

// The NFC normalizer reproduces Hugging Face's NFC, which uses Unicode 9.0
// data (unicode-normalization-alignments 0.1.12): code points assigned
// later are neither reordered nor composed. x/text's norm package is
// Unicode 15 and differs from HF on hundreds of inputs, so the algorithm is
// implemented here on the generated Unicode 9 tables:
//
//  1. decompose every code point fully (Hangul algorithmically),
//  2. stable-sort each run of non-zero combining classes,
//  3. compose left to right, a character joining the last starter unless
//     a character in between blocks it.

type nfcDecomposition struct {
	cp     rune
	decomp string
}

type nfcCombiningClass struct {
	cp  rune
	ccc uint8
}

type nfcComposition struct {
	first, second, composite rune
}

// Hangul syllable arithmetic from the Unicode standard, section 3.12.
const (
	hangulSBase  = 0xAC00
	hangulLBase  = 0x1100
	hangulVBase  = 0x1161
	hangulTBase  = 0x11A7
	hangulLCount = 19
	hangulVCount = 21
	hangulTCount = 28
	hangulNCount = hangulVCount * hangulTCount
	hangulSCount = hangulLCount * hangulNCount
)

type nfcTables struct {
	decomp map[rune]string
	ccc    map[rune]uint8
	comp   map[[2]rune]rune
}

var (
	nfcOnce sync.Once
	nfcData *nfcTables
)

func nfcTablesLoaded() *nfcTables {
	nfcOnce.Do(func() {
		t := &nfcTables{
			decomp: make(map[rune]string, len(nfcDecompositions)),
			ccc:    make(map[rune]uint8, len(nfcCombiningClasses)),
			comp:   make(map[[2]rune]rune, len(nfcCompositions)),
		}
		for _, d := range nfcDecompositions {
			t.decomp[d.cp] = d.decomp
		}
		for _, c := range nfcCombiningClasses {
			t.ccc[c.cp] = c.ccc
		}
		for _, c := range nfcCompositions {
			t.comp[[2]rune{c.first, c.second}] = c.composite
		}
		nfcData = t
	})
	return nfcData
}

// nfcUnsafeRunes lists the code points whose presence means NFC may change
// a text: those with a non-zero combining class, those that compose with a
// preceding character, those NFC changes on their own, and those whose
// decomposition begins with a character that composes with a predecessor.
// A text free of them is already in NFC, which is the common fast path.
func nfcUnsafeRunes() []rune {
	t := nfcTablesLoaded()
	unsafe := make(map[rune]bool)
	for c := range t.ccc {
		unsafe[c] = true
	}
	seconds := make(map[rune]bool)
	for pair := range t.comp {
		seconds[pair[1]] = true
		unsafe[pair[1]] = true
	}
	for c := rune(hangulVBase); c < hangulVBase+hangulVCount; c++ {
		unsafe[c] = true
	}
	for c := rune(hangulTBase + 1); c < hangulTBase+hangulTCount; c++ {
		unsafe[c] = true
	}
	var buf []byte
	for c, d := range t.decomp {
		first, _ := utf8.DecodeRuneInString(d)
		buf = appendNFC(buf[:0], string(c))
		if seconds[first] || string(buf) != string(c) {
			unsafe[c] = true
		}
	}
	out := make([]rune, 0, len(unsafe))
	for c := range unsafe {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// appendNFC appends the NFC form of s to dst. Bytes that are not valid
// UTF-8 are copied unchanged and block composition across them.
func appendNFC(dst []byte, s string) []byte {
	dst, _ = appendNFCScratch(dst, s, nil)
	return dst
}

// appendNFCScratch is appendNFC with a reusable rune buffer.
func appendNFCScratch(dst []byte, s string, runes []rune) ([]byte, []rune) {
	for len(s) > 0 {
		valid := 0
		for valid < len(s) {
			r, w := utf8.DecodeRuneInString(s[valid:])
			if r == utf8.RuneError && w == 1 {
				break
			}
			valid += w
		}
		runes = nfcRunes(runes[:0], s[:valid])
		for _, r := range runes {
			dst = utf8.AppendRune(dst, r)
		}
		if valid < len(s) {
			dst = append(dst, s[valid])
			valid++
		}
		s = s[valid:]
	}
	return dst, runes
}

// nfcRunes appends the NFC form of the valid UTF-8 string s to dst.
func nfcRunes(dst []rune, s string) []rune {
	t := nfcTablesLoaded()
	start := len(dst)
	for _, r := range s {
		dst = appendDecomposed(dst, t, r)
	}
	decomposed := dst[start:]
	sortCombiningRuns(decomposed, t)
	n := composeInPlace(decomposed, t)
	return dst[:start+n]
}

func appendDecomposed(dst []rune, t *nfcTables, r rune) []rune {
	if s := r - hangulSBase; s >= 0 && s < hangulSCount {
		dst = append(dst, hangulLBase+s/hangulNCount, hangulVBase+(s%hangulNCount)/hangulTCount)
		if tIndex := s % hangulTCount; tIndex != 0 {
			dst = append(dst, hangulTBase+tIndex)
		}
		return dst
	}
	if d, ok := t.decomp[r]; ok {
		for _, c := range d {
			dst = append(dst, c)
		}
		return dst
	}
	return append(dst, r)
}

func sortCombiningRuns(rs []rune, t *nfcTables) {
	for i := 0; i < len(rs); {
		if t.ccc[rs[i]] == 0 {
			i++
			continue
		}
		j := i
		for j < len(rs) && t.ccc[rs[j]] != 0 {
			j++
		}
		if j-i > 32 {
			// Zalgo-style runs: keep the sort O(n log n).
			slices.SortStableFunc(rs[i:j], func(a, b rune) int { return int(t.ccc[a]) - int(t.ccc[b]) })
			i = j
			continue
		}
		// Insertion sort: stable, allocation-free, fast on short runs.
		for a := i + 1; a < j; a++ {
			for b := a; b > i && t.ccc[rs[b-1]] > t.ccc[rs[b]]; b-- {
				rs[b-1], rs[b] = rs[b], rs[b-1]
			}
		}
		i = j
	}
}

// composeInPlace composes rs left to right, writing the result over rs and
// returning its length. It follows unicode-normalization's Recompositions
// iterator: a character is blocked from the last starter when an earlier
// uncomposed character has a combining class of zero or not lower than its own.
func composeInPlace(rs []rune, t *nfcTables) int {
	out := 0
	starter := -1 // index in the output of the character being composed onto
	lastCCC := -1 // combining class of the last uncomposed character after it; -1 if none
	for _, c := range rs {
		cc := int(t.ccc[c])
		// Composed onto the starter unless blocked from it.
		if starter >= 0 && lastCCC < cc {
			if composite, ok := compose(t, rs[starter], c); ok {
				rs[starter] = composite
				continue
			}
		}
		rs[out] = c
		out++
		switch {
		case cc == 0:
			starter, lastCCC = out-1, -1
		case starter >= 0:
			lastCCC = cc
		}
	}
	return out
}

func compose(t *nfcTables, a, b rune) (rune, bool) {
	if l, v := a-hangulLBase, b-hangulVBase; l >= 0 && l < hangulLCount && v >= 0 && v < hangulVCount {
		return hangulSBase + (l*hangulVCount+v)*hangulTCount, true
	}
	if s, tIndex := a-hangulSBase, b-hangulTBase; s >= 0 && s < hangulSCount && s%hangulTCount == 0 && tIndex > 0 && tIndex < hangulTCount {
		return a + tIndex, true
	}
	c, ok := t.comp[[2]rune{a, b}]
	return c, ok
}
