package foreign

import (
	"context"
	"io"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// eachLine reads rc a line at a time through contract.LineReader.EachLine
// (blank lines skipped, over-long lines and read errors counted, the
// context checked every 1024 lines), calling fn with each line and its
// number, and sets sum.Bytes to the bytes read: the line loop of the
// foreign line-oriented readers (AIPerf JSONL and CSV, LMBenchmark CSV).
func eachLine(ctx context.Context, opts contract.IngestOptions, rc io.Reader, sum *contract.Summary, fn func(line []byte, n int64, cut bool) error) error {
	lr := contract.NewLineReader(rc, contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize))
	defer func() { sum.Bytes = lr.BytesRead }()
	return lr.EachLine(ctx, opts, 1024, sum, func(line []byte, cut bool) error { return fn(line, lr.Line, cut) })
}
