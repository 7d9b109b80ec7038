package tokenizer

import (
	"bufio"
	"bytes"
	"context"
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

// MaxTokensLine caps an input line of RunTokens (as the events decoder
// caps a line): a longer one is a *LineError, read no further, so a 1 GB
// line costs 64 MiB, not 3 GB.
const MaxTokensLine = 64 << 20

// maxTokensLine is MaxTokensLine, lowered by tests.
var maxTokensLine = MaxTokensLine

// ErrLineTooLong is the error of a line over MaxTokensLine.
var ErrLineTooLong = errors.New("line too long")

// RunTokens implements `steadysweep tokens`: for each JSON line
// {"text": …} of r it writes one line {"count": N} to w, or
// {"count": N, "ids": [...]} when withIDs is set, which needs a
// *Tokenizer. Blank lines are skipped; the first bad line (not JSON, no
// "text", longer than MaxTokensLine, a text its Split pattern cannot split
// in bounded time) stops the run with a *LineError, and a cancelled ctx
// stops it with ctx's cause. For example, with a Llama 3.1 tokenizer:
//
//	{"text": "Hello world"}   →   {"count":2,"ids":[9906,1917]}
func RunTokens(ctx context.Context, r io.Reader, w io.Writer, c Counter, withIDs bool) error {
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
	var raw []byte
	for n := 1; ; n++ {
		var readErr error
		raw, readErr = readLine(br, raw[:0], maxTokensLine)
		if errors.Is(readErr, ErrLineTooLong) {
			bw.Flush() // the lines before it are answered
			return &LineError{Line: n, Err: fmt.Errorf("%w: more than %d MiB", readErr, maxTokensLine>>20)}
		}
		if readErr != nil && readErr != io.EOF {
			return fmt.Errorf("tokens: read line %d: %w", n, readErr)
		}
		if trimmed := bytes.TrimSpace(raw); len(trimmed) > 0 {
			line.Text = nil
			if err := json.Unmarshal(trimmed, &line); err != nil {
				bw.Flush()
				return &LineError{Line: n, Err: err}
			}
			if line.Text == nil {
				bw.Flush()
				return &LineError{Line: n, Err: ErrNoText}
			}
			out = append(out[:0], `{"count":`...)
			if isTokenizer {
				var err error
				if ids, err = tok.AppendEncodeContext(ctx, ids[:0], *line.Text); err != nil {
					bw.Flush()
					if ctx.Err() != nil {
						return err
					}
					return &LineError{Line: n, Err: err}
				}
				out = strconv.AppendInt(out, int64(len(ids)), 10)
			} else {
				if err := context.Cause(ctx); err != nil {
					bw.Flush()
					return err
				}
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

// readLine appends the next line of br (its '\n' included) to dst; past
// limit bytes it stops with ErrLineTooLong. At the end of input the error
// is io.EOF with the last, unterminated line in dst.
func readLine(br *bufio.Reader, dst []byte, limit int) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(dst)+len(chunk) > limit {
			return dst, ErrLineTooLong
		}
		dst = append(dst, chunk...)
		if err != bufio.ErrBufferFull {
			return dst, err
		}
	}
}
