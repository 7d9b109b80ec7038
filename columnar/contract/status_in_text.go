package contract

// httpStatusInText finds an HTTP status in an error message: "HTTP 503",
// "status code 429", "status: 500", "Error code: 400". It returns the
// three digits of the leftmost match of the regular expression
//
//	(?i)\b(?:http(?:/[\d.]+)?|status(?: code)?|error code|code)[:= ]+([1-5]\d\d)\b
//
// (its group 1), hand-written so the binary does not link package
// regexp, whose inits (and unicode's tables below them) ran in every
// process (issue 32); status_in_text_test.go holds it to the regexp.
// As regexp does: \b and \d are ASCII; (?i) folds Unicode, so the "s"
// of "status" also matches "ſ" (U+017F), a non-word character for \b.
func httpStatusInText(msg string) (string, bool) {
	for p := 0; p < len(msg); p++ {
		if !wordBoundary(msg, p) {
			continue
		}
		if end, ok := statusKeyword(msg, p); ok {
			if code, ok := statusCodeAfter(msg, end); ok {
				return code, true
			}
		}
	}
	return "", false
}

// statusKeyword matches http(?:/[\d.]+)?|status(?: code)?|error code|code
// at p (case-insensitively) and returns where it ends. The four start
// with different letters, and each optional part is followed in the
// expression by [:= ]+, which its own characters cannot be, so one end
// per p is the only one the rest can match from.
func statusKeyword(s string, p int) (int, bool) {
	if q, ok := foldPrefix(s, p, "http"); ok {
		if q < len(s) && s[q] == '/' {
			r := q + 1
			for r < len(s) && (s[r] >= '0' && s[r] <= '9' || s[r] == '.') {
				r++
			}
			if r == q+1 {
				return 0, false
			}
			return r, true
		}
		return q, true
	}
	if q, ok := foldPrefix(s, p, "status"); ok {
		if r, ok := foldPrefix(s, q, " code"); ok {
			// "status code" unless the rest fails after it; then
			// "status" alone, followed by " code…", fails too (a
			// separator run must end at a digit).
			return r, true
		}
		return q, true
	}
	if q, ok := foldPrefix(s, p, "error code"); ok {
		return q, true
	}
	return foldPrefix(s, p, "code")
}

// statusCodeAfter matches [:= ]+([1-5]\d\d)\b at p: the separator run is
// taken whole (a shorter one leaves a separator where a digit must be).
func statusCodeAfter(s string, p int) (string, bool) {
	q := p
	for q < len(s) && (s[q] == ':' || s[q] == '=' || s[q] == ' ') {
		q++
	}
	if q == p || q+3 > len(s) || s[q] < '1' || s[q] > '5' || !isDigit(s[q+1]) || !isDigit(s[q+2]) {
		return "", false
	}
	if !wordBoundary(s, q+3) {
		return "", false
	}
	return s[q : q+3], true
}

// foldPrefix matches lower (ASCII lower-case letters and spaces) at s[p:]
// as (?i) does and returns where the match ends: each letter matches
// itself upper- or lower-case; 's' also matches U+017F (ſ, "\xc5\xbf"),
// the one letter of these words with another member in Unicode's
// simple case folding (k's Kelvin sign is not among them).
func foldPrefix(s string, p int, lower string) (int, bool) {
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		switch {
		case p < len(s) && (s[p] == c || c != ' ' && s[p] == c-'a'+'A'):
			p++
		case c == 's' && p+1 < len(s) && s[p] == 0xc5 && s[p+1] == 0xbf:
			p += 2
		default:
			return 0, false
		}
	}
	return p, true
}

// wordBoundary is regexp's \b at p: an ASCII word character on exactly
// one side.
func wordBoundary(s string, p int) bool {
	before := p > 0 && isWordByte(s[p-1])
	after := p < len(s) && isWordByte(s[p])
	return before != after
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
