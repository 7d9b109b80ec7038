package main

import "strings"

// didYouMean returns the candidate closest to word, when a mistyped word
// is plausibly it: within two edits (a swap of neighbours is one), and
// fewer than half of word's letters; "" otherwise. Ties go to the first
// candidate.
func didYouMean(word string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(word, c); d < bestD && 2*d < len(word) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the optimal-string-alignment distance between a and b:
// the fewest insertions, deletions, substitutions and swaps of adjacent
// bytes (each 1) that turn a into b, no substring edited twice. Bytes,
// not runes: flag and command names are ASCII.
func editDistance(a, b string) int {
	// rows i-2, i-1 and i of the (len(a)+1) × (len(b)+1) table.
	prev2, prev, cur := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// unknownFlagHint is pflag's "unknown flag: --NAME" error with the flag
// of fs it most likely meant, "" when none is close.
func unknownFlagHint(msg string, names []string) string {
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return ""
	}
	if m := didYouMean(name, names); m != "" {
		return "did you mean --" + m + "?"
	}
	return ""
}
