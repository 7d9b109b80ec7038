package contract

import (
	"net/http"
	"strings"
	"testing"
)

// TestReasonPhrasesAreNetHTTPs: reasonPhraseStatus is net/http's StatusText
// for every 4xx and 5xx status it names, lower case, and nothing else
// (the table replaced a loop over StatusText; tests may link net/http).
func TestReasonPhrasesAreNetHTTPs(t *testing.T) {
	n := 0
	for c := 400; c < 600; c++ {
		if text := http.StatusText(c); text != "" {
			n++
			if got, _ := reasonPhraseStatus(strings.ToLower(text)); got != int32(c) {
				t.Errorf("%q maps to %d, want %d", text, got, c)
			}
		}
	}
	if n != len(reasonPhrases) {
		t.Errorf("%d phrases, net/http names %d", len(reasonPhrases), n)
	}
}
