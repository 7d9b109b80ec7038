// Package tokenstrings makes test inputs for hand-written matchers held
// to the regular expressions they replace: random concatenations of
// tokens (the pattern's literals, its character classes' edges, and
// characters it must reject), which reach a pattern's corner cases far
// more often than uniformly random bytes, with no fuzzing build (a fuzz
// build of a package whose tests link arrow-go takes minutes).
package tokenstrings

import "math/rand/v2"

// Each calls f with n strings of 0 to maxTokens tokens, the same for
// the same seed, and stops early when f returns false.
func Each(seed uint64, tokens []string, n, maxTokens int, f func(string) bool) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	buf := make([]byte, 0, 64)
	for range n {
		buf = buf[:0]
		for range r.IntN(maxTokens + 1) {
			buf = append(buf, tokens[r.IntN(len(tokens))]...)
		}
		if !f(string(buf)) {
			return
		}
	}
}
