package tokenizer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// LineError reports a bad input line of RunTokens. Line numbers are
// 1-indexed.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("tokens: line %d: %v", e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// ErrNoText is the error of a line without a string "text" field.
var ErrNoText = errors.New(`want a JSON object with a string "text" field`)

// RunTokens implements `steadysweep tokens`: for each JSON line
// {"text": …} of r it writes one line {"count": N} to w, or
// {"count": N, "ids": [...]} when withIDs is set, which needs a
// *Tokenizer. Blank lines are skipped; the first bad line stops the run
// with a *LineError. For example, with a Llama 3.1 tokenizer:
//
//	{"text": "Hello world"}   →   {"count":2,"ids":[9906,1917]}
func RunTokens(r io.Reader, w io.Writer, c Counter, withIDs bool) error {
	tok, isTokenizer := c.(*Tokenizer)
	if withIDs && !isTokenizer {
		return fmt.Errorf("tokens: ids need a tokenizer, not %s", c.Identity())
	}
	br := bufio.NewReaderSize(r, 1<<16)
	bw := bufio.NewWriterSize(w, 1<<16)
	var (
		out  []byte
		ids  []uint32
		line struct {
			Text *string `json:"text"`
		}
	)
	for n := 1; ; n++ {
		raw, readErr := br.ReadBytes('\n')
		if readErr != nil && readErr != io.EOF {
			return fmt.Errorf("tokens: read line %d: %w", n, readErr)
		}
		if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 {
			line.Text = nil
			if err := json.Unmarshal(trimmed, &line); err != nil {
				return &LineError{Line: n, Err: err}
			}
			if line.Text == nil {
				return &LineError{Line: n, Err: ErrNoText}
			}
			out = append(out[:0], `{"count":`...)
			if isTokenizer {
				ids = tok.AppendEncode(ids[:0], *line.Text)
				out = strconv.AppendInt(out, int64(len(ids)), 10)
			} else {
				out = strconv.AppendInt(out, int64(c.Count(*line.Text)), 10)
			}
			if withIDs {
				out = append(out, `,"ids":[`...)
				for i, id := range ids {
					if i > 0 {
						out = append(out, ',')
					}
					out = strconv.AppendUint(out, uint64(id), 10)
				}
				out = append(out, ']')
			}
			out = append(out, "}\n"...)
			if _, err := bw.Write(out); err != nil {
				return fmt.Errorf("tokens: write line %d: %w", n, err)
			}
		}
		if readErr == io.EOF {
			break
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("tokens: write: %w", err)
	}
	return nil
}
