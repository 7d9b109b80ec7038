package tokenizer

import (
	"slices"
	"strings"
	"testing"
	"unicode"
)

// Patterns of the shared tokenizers (shared/tokenizers/README.md).
const (
	llamaPattern   = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	gptossPattern  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	deepseekDigits = `\p{N}{1,3}`
	deepseekCJK    = "[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]+"
	deepseekWords  = "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"
)

// TestSplitPieces checks the engine's Oniguruma semantics on cases worked
// out from the README's description of each alternative (leftmost-first
// alternation, greedy quantifiers with backtracking, lookahead that sees
// the end of the piece as the end of the text).
func TestSplitPieces(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		text     string
		want     []string
	}{
		{"ContractionFirst", []string{llamaPattern}, "it's", []string{"it", "'s"}},
		{"ContractionFolded", []string{llamaPattern}, "IT'S x'ſ", []string{"IT", "'S", " x", "'ſ"}},
		{"SpaceGivenBack", []string{llamaPattern}, "a   b", []string{"a", "  ", " b"}},
		{"TrailingSpaceKept", []string{llamaPattern}, "a   ", []string{"a", "   "}},
		{"NewlineRun", []string{llamaPattern}, "a \t\r\n\nb", []string{"a", " \t\r\n\n", "b"}},
		// Unicode White_Space: U+3000 and U+00A0 are \s; U+200B is not, so
		// it is the optional non-letter that may lead a word.
		{"UnicodeSpace", []string{llamaPattern}, "a\u3000\u00a0b\u200bc", []string{"a", "\u3000", "\u00a0b", "\u200bc"}},
		{"DigitsByThree", []string{llamaPattern}, "1234567", []string{"123", "456", "7"}},
		{"PunctuationTakesNewlines", []string{llamaPattern}, "x.\n\ny", []string{"x", ".\n\n", "y"}},
		// A mark is not \p{L}: "é" decomposed is "e" then a punctuation-like piece.
		{"MarkNotLetter", []string{llamaPattern}, "e\u0301", []string{"e", "\u0301"}},
		// gptoss: an upper-case run followed by lower case goes through the
		// first alternative ([A]*[B]+), an all-caps word through the second.
		{"CamelCase", []string{gptossPattern}, "HelloWORLD's", []string{"Hello", "WORLD's"}},
		{"LowerContraction", []string{gptossPattern}, "don't", []string{"don't"}},
		// Lo is in both letter classes: [A]* must give one back to [B]+.
		{"OverlapBacktrack", []string{gptossPattern}, "日本語", []string{"日本語"}},
		{"PunctuationSlash", []string{gptossPattern}, "a//\nb", []string{"a", "//\n", "b"}},
		// deepseek: three Splits in sequence; the digit Split runs first.
		{"DeepseekSequence", []string{deepseekDigits, deepseekCJK, deepseekWords}, "abc12345日本語.com x", []string{"abc", "123", "45", "日本語", ".com", " x"}},
		{"DeepseekPieceEndIsTextEnd", []string{deepseekDigits, deepseekWords}, "  1", []string{"  ", "1"}},
		// U+0378 is unassigned: before "." no alternative matches it, so it
		// is a gap piece; before a letter it leads the word.
		{"Unmatched", []string{deepseekWords}, "a\u0378.\u0378b", []string{"a", "\u0378", ".", "\u0378b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var splits []*pattern
			for _, src := range tt.patterns {
				re, err := compilePattern(src)
				if err != nil {
					t.Fatal(err)
				}
				splits = append(splits, re)
			}
			var m matcher
			got := m.preTokenize(splits, tt.text, nil)
			if !slices.Equal(got, tt.want) {
				t.Errorf("pieces of %q:\ngot  %q\nwant %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestCompilePatternUnsupported(t *testing.T) {
	for _, src := range []string{
		`\bword`, `^a`, `a$`, `\d+`, `\w+`, `a+?`, `a*+`, `(?<=a)b`, `(?i)a`, `[a[b]]`, `[a&&b]`,
		`(ab)+`, `\p{Greek}`, `a*`, `(`, `\`, `[ab`, `\1`,
	} {
		if _, err := compilePattern(src); err == nil || !strings.Contains(err.Error(), "unsupported: regex") {
			t.Errorf("compilePattern(%q) error = %v, want unsupported", src, err)
		}
	}
}

// TestCaseFolds checks that (?i) folds each letter of the contraction
// group to exactly the set Oniguruma does (the fold_x tables of
// onig_classes.json, embedded in tables_gen.go).
func TestCaseFolds(t *testing.T) {
	for _, letter := range "strevmld" {
		want := onigClass("fold_" + string(letter))
		if want == nil {
			t.Fatalf("no fold table for %c", letter)
		}
		var got []rune
		got = append(got, letter)
		for _, r := range appendFolds(nil, letter) {
			got = append(got, r.lo)
		}
		slices.Sort(got)
		var wantRunes []rune
		for _, r := range want {
			for c := r.lo; c <= r.hi; c++ {
				wantRunes = append(wantRunes, c)
			}
		}
		if !slices.Equal(got, wantRunes) {
			t.Errorf("folds of %c = %q, want %q", letter, got, wantRunes)
		}
	}
}

// TestPropertiesMatchOniguruma spot-checks the embedded Unicode 16 tables
// where they differ from Go's Unicode 15: U+1E5D0 (Ol Onal, Unicode 16) is
// a letter for Oniguruma, and \s is White_Space including U+0085 and U+3000
// but not U+200B (README, "Regex features Go's regexp lacks").
func TestPropertiesMatchOniguruma(t *testing.T) {
	props := unicodeProperties()
	tests := []struct {
		r    rune
		want property
		not  property
	}{
		{0x1E5D0, propL | propLo, propN},
		{'A', propL | propLu, propLl},
		{0x0085, propSpace, propL},
		{0x3000, propSpace, propP},
		{0x200B, 0, propSpace},
		{0x0301, propM, propL},
		{0x00BD, propN, propL},
	}
	for _, tt := range tests {
		got := props.of(tt.r)
		if got&tt.want != tt.want || got&tt.not != 0 {
			t.Errorf("properties of %U = %b, want %b set and %b clear", tt.r, got, tt.want, tt.not)
		}
	}
	// Every White_Space code point in Oniguruma's \s, and no other, per
	// the README's list of 25.
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if props.of(r)&propSpace != 0 {
			n++
			if !unicode.IsSpace(r) {
				t.Errorf("%U is \\s but not unicode.IsSpace", r)
			}
		}
	}
	if n != 25 {
		t.Errorf("%d code points in \\s, want 25", n)
	}
}
