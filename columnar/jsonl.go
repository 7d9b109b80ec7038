package columnar

import (
	"bufio"
	"bytes"
	"io"
)

// lineReader reads the lines of a JSONL log (AIPerf, endpoints-legacy)
// one at a time into a reused buffer, a line longer than max skipped
// whole instead of held.
type lineReader struct {
	br   *bufio.Reader
	max  int
	line int64 // 1-based number of the line last returned
	read int64 // bytes consumed
	buf  []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 1<<20), max: max}
}

// next returns the next line without its line ending (valid until the
// next call). cut reports a last line with no newline; tooLong a line
// over the cap, returned empty. err is io.EOF at the end, or the read
// error that ended the stream.
func (r *lineReader) next() (line []byte, cut, tooLong bool, err error) {
	r.buf = r.buf[:0]
	started := false
	for {
		chunk, e := r.br.ReadSlice('\n')
		r.read += int64(len(chunk))
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
		r.line++
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
