package tokenstrings

import "testing"

// Check runs check on each seed, then on n strings of Each(seed 32,
// tokens, maxTokens), stopping at the first failure.
func Check(t *testing.T, seeds, tokens []string, n, maxTokens int, check func(*testing.T, string)) {
	t.Helper()
	for _, s := range seeds {
		if check(t, s); t.Failed() {
			return
		}
	}
	Each(32, tokens, n, maxTokens, func(s string) bool {
		check(t, s)
		return !t.Failed()
	})
}

// Fuzz fuzzes check from the seeds (go test -fuzz).
func Fuzz(f *testing.F, seeds []string, check func(*testing.T, string)) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(check)
}
