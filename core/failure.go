package core

// FailureKind says how a request failed to complete. The readers set it
// from what each log records; a log that records less gets a coarser
// kind (FailError), never a guessed one.
type FailureKind uint8

// The failure kinds, from least to most specific cause.
const (
	// FailNone: the request completed successfully.
	FailNone FailureKind = iota
	// FailError: the log records a failure without saying how.
	FailError
	// FailHTTP: the server answered with an HTTP error status.
	FailHTTP
	// FailMidstream: the response broke off after its first token.
	FailMidstream
	// FailTimeout: the client gave up waiting.
	FailTimeout
	// FailCancelled: the client cancelled the request (AIPerf's
	// --request-cancellation-rate, an interrupted GuideLLM request).
	FailCancelled
	// FailIncomplete: the request was still in flight when the log ended;
	// the tool recorded no failure.
	FailIncomplete
	numFailureKinds
)

// failureNames are the kinds' names by kind (a function: core keeps no
// package state).
func failureNames() [numFailureKinds]string {
	return [numFailureKinds]string{"", "error", "http", "midstream", "timeout", "cancelled", "incomplete"}
}

// String returns the kind's name ("" for FailNone).
func (k FailureKind) String() string {
	if k < numFailureKinds {
		return failureNames()[k]
	}
	return "unknown"
}

// FailureKindByName is the inverse of String; ok is false for an unknown
// name.
func FailureKindByName(name string) (k FailureKind, ok bool) {
	for i, n := range failureNames() {
		if n == name {
			return FailureKind(i), true
		}
	}
	return FailNone, false
}
