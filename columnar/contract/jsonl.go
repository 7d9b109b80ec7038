package contract

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
)

// lineReader reads the lines of a JSONL log (AIPerf, endpoints-legacy)
// one at a time into a reused buffer, a line longer than max skipped
// whole instead of held.
type lineReader struct {
	br        *bufio.Reader
	max       int
	Line      int64 // 1-based number of the line last returned
	BytesRead int64 // bytes consumed
	buf       []byte
}

func NewLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 1<<20), max: max}
}

// Next returns the next line without its line ending (valid until the
// next call). cut reports a last line with no newline; tooLong a line
// over the cap, returned empty. err is io.EOF at the end, or the read
// error that ended the stream.
func (r *lineReader) Next() (line []byte, cut, tooLong bool, err error) {
	r.buf = r.buf[:0]
	started := false
	for {
		chunk, e := r.br.ReadSlice('\n')
		r.BytesRead += int64(len(chunk))
		if len(chunk) > 0 {
			started = true
		}
		if !tooLong {
			if len(r.buf)+len(chunk) > r.max+1 {
				tooLong, r.buf = true, r.buf[:0]
			} else {
				r.buf = append(r.buf, chunk...)
			}
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if e != nil && !started {
			return nil, false, false, e
		}
		r.Line++
		if e != nil && e != io.EOF {
			return nil, false, false, e
		}
		cut = e == io.EOF
		if tooLong {
			return nil, cut, true, nil
		}
		return bytes.TrimRight(r.buf, "\r\n"), cut, false, nil
	}
}

// UnmarshalLine decodes one JSONL line into v, an object type. ok is
// false when the line is unusable (its problem counted): not JSON (a cut
// last line is a truncated log), or JSON but not an object. A field of
// the wrong type is counted and reads as absent; the line is still used.
func UnmarshalLine(line []byte, lineNo int64, cut bool, v any, sum *Summary) bool {
	err := json.Unmarshal(line, v)
	if err == nil {
		return true
	}
	var te *json.UnmarshalTypeError
	switch {
	case !json.Valid(line) && cut:
		sum.AddProblem(KindTruncatedLine, lineNo, "")
		sum.Truncated, sum.TruncatedReason = true, "last line has no newline"
	case !json.Valid(line):
		sum.AddProblem(KindSyntax, lineNo, "")
	case bytes.TrimSpace(line)[0] != '{':
		sum.AddProblem(KindNotObject, lineNo, "")
	case errors.As(err, &te):
		sum.AddProblem(KindFieldType, lineNo, te.Field)
		return true
	default:
		sum.AddProblem(KindSyntax, lineNo, "")
	}
	return false
}

// OptNum is an optional JSON number field. Unlike a *float64 it tells
// absent (or null) from present-but-not-a-number, and keeps an integer
// exact (nanosecond timestamps exceed float64's 2^53).
type OptNum struct {
	Float    float64
	Int      int64
	Set, Bad bool
	IsInt    bool
}

func (o *OptNum) UnmarshalJSON(b []byte) error {
	*o = OptNum{}
	s := string(bytes.TrimSpace(b))
	if s == "null" {
		return nil
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		o.Int, o.Float, o.IsInt, o.Set = i, float64(i), true, true
		return nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && s[0] != '"' && !math.IsInf(f, 0) {
		o.Float, o.Set = f, true
		if f >= -9.2e18 && f <= 9.2e18 {
			o.Int = int64(f)
		}
		return nil
	}
	o.Bad = true
	return nil
}

// Check counts a present-but-unusable field as a problem at field and
// reports whether the value is usable.
func (o OptNum) Check(sum *Summary, line int64, field string) bool {
	if o.Bad {
		sum.AddProblem(KindFieldType, line, field)
	}
	return o.Set
}

// FirstNum returns the first set field, counting the unusable ones.
func FirstNum(sum *Summary, line int64, fields []string, nums ...OptNum) (OptNum, bool) {
	for k, n := range nums {
		if n.Check(sum, line, fields[k]) {
			return n, true
		}
	}
	return OptNum{}, false
}
