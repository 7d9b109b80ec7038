package contract

import (
	"errors"
	"fmt"
)

// Sentinel errors stored in ParseError.Err. Each names one kind of bad
// input; Summary counts problems per kind (see Kind).
var (
	// ErrSyntax: the line is not valid JSON (the reference skips it).
	ErrSyntax = errors.New("not valid JSON")
	// ErrTruncatedLine: the last line has no newline and is not valid JSON
	// (a cut write of a killed run).
	ErrTruncatedLine = errors.New("truncated last line")
	// ErrBOM: the line starts with a UTF-8 byte order mark (the reference
	// cannot parse it and skips it).
	ErrBOM = errors.New("line starts with a UTF-8 BOM")
	// ErrNUL: the line contains a NUL byte.
	ErrNUL = errors.New("line contains a NUL byte")
	// ErrNotObject: the line is valid JSON but not an object (the
	// reference crashes; we skip the line).
	ErrNotObject = errors.New("JSON value is not an object")
	// ErrLineTooLong: the line exceeds the decoder's line limit and was
	// skipped without being parsed.
	ErrLineTooLong = errors.New("line too long")
	// ErrInvalidUTF8: the line holds bytes that are not UTF-8 (the
	// reference crashes on the whole file; we decode the line lossily).
	ErrInvalidUTF8 = errors.New("invalid UTF-8")
	// ErrFieldType: a field has a type the reference cannot use (string
	// timestamp or turn, array uuid, non-string event_type, non-string
	// text chunk, …). The event is kept when a safe reading exists,
	// otherwise dropped; Summary says which.
	ErrFieldType = errors.New("unexpected field type")
	// ErrMissingField: a field the event needs is missing, null or empty
	// (timestamp_ns or sample_uuid of a sample event, event_type); the
	// reference ignores such an event, and so do we.
	ErrMissingField = errors.New("required field missing, null or empty")
	// ErrCompletedTwice: a uuid completed, was issued again and completed
	// again (the reference crashes when both completions fall in one
	// tokenizer batch; we keep both samples).
	ErrCompletedTwice = errors.New("uuid completed twice")
	// ErrCorruptStream: the compressed stream could not be decoded; the
	// lines before the damage were ingested.
	ErrCorruptStream = errors.New("corrupt compressed stream")
)

// ParseError is a problem at one place of an events file. Line numbers
// are 1-indexed and count physical lines as Python's universal newlines
// does (\n, \r\n and a lone \r each end a line); 0 means the place is
// named by Field alone (a record of a JSON report, e.g.
// "benchmarks[0].requests.successful[3].output_tokens"). Field is the
// JSON key involved ("" for the whole line).
type ParseError struct {
	File  string
	Line  int
	Field string
	Err   error
}

func (e *ParseError) Error() string {
	file := e.File
	if file == "" {
		file = "<input>"
	}
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s: %v", file, e.Field, e.Err)
	}
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %v", file, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: field %q: %v", file, e.Line, e.Field, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Kind classifies a ParseError by its sentinel, for counting.
type Kind uint8

// The kinds, one per sentinel.
const (
	KindSyntax Kind = iota
	KindTruncatedLine
	KindBOM
	KindNUL
	KindNotObject
	KindLineTooLong
	KindInvalidUTF8
	KindFieldType
	KindMissingField
	KindCompletedTwice
	KindCorruptStream
	numKinds
)

// kindInfo holds each kind's name and the address of its sentinel: the
// addresses are link-time data, where copies of the sentinels' values
// would be written by a package init in every process (issue 32).
var kindInfo = [numKinds]struct {
	name string
	err  *error
}{
	KindSyntax:         {"syntax", &ErrSyntax},
	KindTruncatedLine:  {"truncated_line", &ErrTruncatedLine},
	KindBOM:            {"bom", &ErrBOM},
	KindNUL:            {"nul_byte", &ErrNUL},
	KindNotObject:      {"not_object", &ErrNotObject},
	KindLineTooLong:    {"line_too_long", &ErrLineTooLong},
	KindInvalidUTF8:    {"invalid_utf8", &ErrInvalidUTF8},
	KindFieldType:      {"field_type", &ErrFieldType},
	KindMissingField:   {"missing_field", &ErrMissingField},
	KindCompletedTwice: {"completed_twice", &ErrCompletedTwice},
	KindCorruptStream:  {"corrupt_stream", &ErrCorruptStream},
}

// String returns the kind's short name, e.g. "syntax".
func (k Kind) String() string {
	if k < numKinds {
		return kindInfo[k].name
	}
	return "<unknown>"
}

// Err returns the kind's sentinel error.
func (k Kind) Err() error {
	if k < numKinds {
		return *kindInfo[k].err
	}
	return nil
}

// kindOf maps a sentinel to its kind (KindSyntax when unknown).
func kindOf(err error) Kind {
	for k := Kind(0); k < numKinds; k++ {
		if errors.Is(err, *kindInfo[k].err) {
			return k
		}
	}
	return KindSyntax
}

// kindByName is the inverse of Kind.String.
func kindByName(name string) (Kind, bool) {
	for k := Kind(0); k < numKinds; k++ {
		if kindInfo[k].name == name {
			return k, true
		}
	}
	return 0, false
}
