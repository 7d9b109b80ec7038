package columnar

import (
	"bytes"
	"errors"
	"fmt"
)

// EncodingError reports a log that starts with a UTF-16 or UTF-32
// byte-order mark: every reader reads UTF-8 (JSON and YAML as written by
// the tools), so such a file is refused by name rather than detected as
// garbage, or left out of a sweep as "no log here" (issue 30).
type EncodingError struct {
	File string
	// Encoding is what the byte-order mark declares: "UTF-16LE",
	// "UTF-16BE", "UTF-32LE" or "UTF-32BE".
	Encoding string
}

func (e *EncodingError) Error() string {
	return fmt.Sprintf("%s: %s log (byte-order mark): not read; convert it to UTF-8 (iconv -f %s -t UTF-8)", e.File, e.Encoding, e.Encoding)
}

// Is reports target == ErrUnknownFormat: the file's format is not known
// (exit codes and callers that test for it treat it alike).
func (e *EncodingError) Is(target error) bool { return target == ErrUnknownFormat }

// byteOrderMarks are the marks of the encodings refused, UTF-32 first:
// the UTF-32LE mark starts with the UTF-16LE one.
var byteOrderMarks = []struct {
	mark     string
	encoding string
}{
	{"\xff\xfe\x00\x00", "UTF-32LE"},
	{"\x00\x00\xfe\xff", "UTF-32BE"},
	{"\xff\xfe", "UTF-16LE"},
	{"\xfe\xff", "UTF-16BE"},
}

// byteOrderEncoding returns the encoding head's byte-order mark declares
// when it is not UTF-8, "" otherwise (no mark, or the UTF-8 one).
func byteOrderEncoding(head []byte) string {
	for _, b := range byteOrderMarks {
		if bytes.HasPrefix(head, []byte(b.mark)) {
			return b.encoding
		}
	}
	return ""
}

// keepsRun reports a detection error of a file that may be a log and is
// still a run, whose row says why it was not read: undecided within the
// bytes detection reads, or refused for its encoding.
func keepsRun(err error) bool { return IsEncodingRefusal(err) || isUndecided(err) }

// IsEncodingRefusal reports an *EncodingError: a log in UTF-16 or UTF-32.
func IsEncodingRefusal(err error) bool {
	var e *EncodingError
	return errors.As(err, &e)
}
