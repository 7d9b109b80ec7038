package tokenizer

import "testing"

// TestWords checks Words against Python's len(str.split()), whose
// whitespace is str.isspace (detector.md §3.9): it includes U+001C–U+001F,
// U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and
// U+3000, and excludes U+200B, U+180E and U+FEFF.
func TestWords(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"   ", 0},
		{"hello", 1},
		{" hello  world ", 2},
		{"a\tb\nc\rd\ve\ff", 6},
		{"a\x1cb\x1dc\x1ed\x1fe", 5},
		{"a\u0085b\u00a0c\u1680d", 4},
		{"a\u2000b\u200ac\u2028d\u2029e\u202ff\u205fg\u3000h", 8},
		{"a\u200bb\u180ec\ufeffd", 1},
		{"naïve café 日本語", 3},
		{"\xff \xfe", 2},
	}
	for _, tt := range tests {
		if got := (Words{}).Count(tt.text); got != tt.want {
			t.Errorf("Words.Count(%+q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
