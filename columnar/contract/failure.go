package contract

import (
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
)

// reasonPhrases are the reason phrases of the HTTP error statuses
// (RFC 9110 §15.5–15.6 and the IANA HTTP status code registry, lower
// case) with their status, for tools that record only the phrase (vLLM's
// response.reason). A table rather than net/http's StatusText: linking
// net/http (and with it crypto/tls and x509) for it cost every process
// their initialisation. An array the linker lays out, not a map: a
// package-level map (or a sync.OnceValue holding one) is built by every
// process at start-up (issue 32); a failure without a code is rare and
// a scan of 40 short strings cheap.
var reasonPhrases = [...]struct {
	phrase string
	status int32
}{
	{"bad request", 400}, {"unauthorized", 401}, {"payment required", 402}, {"forbidden", 403},
	{"not found", 404}, {"method not allowed", 405}, {"not acceptable", 406},
	{"proxy authentication required", 407}, {"request timeout", 408}, {"conflict", 409},
	{"gone", 410}, {"length required", 411}, {"precondition failed", 412},
	{"request entity too large", 413}, {"request uri too long", 414}, {"unsupported media type", 415},
	{"requested range not satisfiable", 416}, {"expectation failed", 417}, {"i'm a teapot", 418},
	{"misdirected request", 421}, {"unprocessable entity", 422}, {"locked", 423},
	{"failed dependency", 424}, {"too early", 425}, {"upgrade required", 426},
	{"precondition required", 428}, {"too many requests", 429},
	{"request header fields too large", 431}, {"unavailable for legal reasons", 451},
	{"internal server error", 500}, {"not implemented", 501}, {"bad gateway", 502},
	{"service unavailable", 503}, {"gateway timeout", 504}, {"http version not supported", 505},
	{"variant also negotiates", 506}, {"insufficient storage", 507}, {"loop detected", 508},
	{"not extended", 510}, {"network authentication required", 511},
}

// reasonPhraseStatus is the status whose reason phrase is phrase (lower
// case).
func reasonPhraseStatus(phrase string) (int32, bool) {
	for _, r := range reasonPhrases {
		if r.phrase == phrase {
			return r.status, true
		}
	}
	return 0, false
}

// ClassifyFailure names how a request failed from what its log records:
// a status or tool error code (0 when none), the error's type name and
// message, and whether its first token had arrived. The most specific
// cause the record supports wins: cancelled, timeout, an HTTP status,
// then midstream (a stream broken after its first token); otherwise
// FailError. The code returned is the HTTP status or the tool's code.
func ClassifyFailure(code int64, typ, msg string, gotFirst bool) (core.FailureKind, int32) {
	text := strings.ToLower(typ + " " + msg)
	c := int32(0)
	if code > 0 && code < 1<<31 {
		c = int32(code)
	}
	if c == 0 {
		if m, ok := httpStatusInText(msg); ok {
			n, _ := strconv.Atoi(m)
			c = int32(n)
		} else if n, ok := reasonPhraseStatus(strings.ToLower(strings.TrimSpace(msg))); ok {
			c = n
		}
	}
	switch {
	case c == 499 || strings.Contains(text, "cancel"):
		return core.FailCancelled, c
	case strings.Contains(text, "timeout") || strings.Contains(text, "timed out"):
		return core.FailTimeout, c
	case c >= 400 && c < 600:
		return core.FailHTTP, c
	case gotFirst:
		return core.FailMidstream, c
	}
	return core.FailError, c
}

// FillDecodedColumns completes the columns a decoder of the endpoints
// formats does not fill itself: the failure kinds, derived from the
// columns (a failed sample with a first token broke off midstream,
// another failed one is FailError, one neither completed nor failed was
// still in flight at the end of the log: FailIncomplete; applyErrorCauses
// then refines them by the error events' texts). These logs record no
// input or reasoning token counts, and failure codes only where an error
// text names one: those columns are left nil (read as -1 and 0; see
// core.Samples), 20 bytes a sample not spent.
func FillDecodedColumns(s *core.Samples) {
	n := s.Len()
	s.FailureKind = make([]core.FailureKind, n)
	for i := range s.FailureKind {
		switch {
		case s.Failed[i] && s.HasFirstToken[i]:
			s.FailureKind[i] = core.FailMidstream
		case s.Failed[i]:
			s.FailureKind[i] = core.FailError
		case !s.HasComplete[i]:
			s.FailureKind[i] = core.FailIncomplete
		}
	}
	s.FailCode, s.InTokens, s.ReasoningTokens = nil, nil, nil
}

// SetFailCode records sample i's failure code (an optional column).
func SetFailCode(s *core.Samples, i int, code int32) {
	SetOptional(&s.FailCode, s.Len(), i, code, 0)
}
