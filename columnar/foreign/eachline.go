package foreign

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// eachLine reads a line-based log (AIPerf JSONL, LMBenchmark and AIPerf
// CSVs) for its reader: it checkpoints every 1024 lines, counts an
// over-long line as a problem and skips it, skips blank lines, and calls
// fn with every other line, its number and whether it lacked its final
// newline. A read error is a problem at the line reached and truncates
// the run there. sum.Lines and sum.Bytes record how far it read; an
// error from fn or the checkpoint stops the read and is returned.
func eachLine(ctx context.Context, opts contract.IngestOptions, rc io.Reader, sum *contract.Summary, fn func(line []byte, n int64, cut bool) error) error {
	lr := contract.NewLineReader(rc, contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize))
	defer func() { sum.Bytes = lr.BytesRead }()
	for {
		if lr.Line%1024 == 0 {
			if err := contract.Checkpoint(ctx, opts, lr.BytesRead); err != nil {
				return err
			}
		}
		line, cut, tooLong, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			sum.AddProblem(contract.KindCorruptStream, max(lr.Line, 1), "")
			sum.Truncated, sum.TruncatedReason = true, fmt.Sprintf("read error after line %d: %v", lr.Line, err)
			return nil
		}
		sum.Lines = lr.Line
		if tooLong {
			sum.AddProblem(contract.KindLineTooLong, lr.Line, "")
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(line, lr.Line, cut); err != nil {
			return err
		}
	}
}
