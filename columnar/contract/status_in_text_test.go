package contract

import (
	"regexp"
	"testing"

	"github.com/steadysweep/steadysweep/internal/tokenstrings"
)

// statusInTextRE is the regular expression httpStatusInText replaces
// (columnar/contract before issue 32).
var statusInTextRE = regexp.MustCompile(`(?i)\b(?:http(?:/[\d.]+)?|status(?: code)?|error code|code)[:= ]+([1-5]\d\d)\b`)

func checkStatusInText(t *testing.T, msg string) {
	t.Helper()
	code, ok := httpStatusInText(msg)
	m := statusInTextRE.FindStringSubmatch(msg)
	if ok != (m != nil) || ok && code != m[1] {
		t.Fatalf("httpStatusInText(%q) = %q, %v; regexp %q", msg, code, ok, m)
	}
}

var statusInTextSeeds = []string{
	"", "HTTP 503", "http/1.1 429 Too Many", "HTTP/ 503", "HTTP/1.1503", "status code 429", "status: 500",
	"Error code: 400", "error code=404", "code 200", "xcode 500", "code 5000", "code 500x", "code 500_",
	"code 500.", "code 600", "code 099", "StAtUs CoDe 502", "status code 5001", "status  :: 401 ",
	"ſtatus 500", "xſtatus 500", "status code ſ 500", "ſtatuſ 500", "errorcode 500", "the HTTP=502!",
	"status code: 123 and HTTP 404", "http/1.1.1. 500", "code:\t500", "code: 5", "code: 50",
	"é code 500", "\xffcode 500", "code 500\xff", "status code", "status codes 500", "Status:403",
	"(HTTP 504)", "_code 500", "9code 500", "CODE 500", "HTTPS 500", "statuscode 500",
}

// TestHTTPStatusInTextMatchesRegexp: the seeds, then 300,000 messages built from the pattern's pieces (the keywords in both cases,
// separators, digits, word and non-word neighbours, ſ).
func TestHTTPStatusInTextMatchesRegexp(t *testing.T) {
	tokens := []string{"http", "HTTP", "Http", "/", "1.1", ".", "status", "STATUS", "ſtatus", "ſ", " code", " CODE",
		"code", "error", "error code", " ", ":", "=", "1", "5", "0", "6", "99", "404", "x", "_", "é", "\xff", "-"}
	tokenstrings.Check(t, statusInTextSeeds, tokens, 300_000, 8, checkStatusInText)
}

func FuzzHTTPStatusInText(f *testing.F) { tokenstrings.Fuzz(f, statusInTextSeeds, checkStatusInText) }
