package foreign

import (
	"context"
	"io"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// readLines opens run's log for a line-oriented reader (AIPerf JSONL and
// CSV, LMBenchmark CSV: dst reset, reads observing ctx) and reads it a
// line at a time through contract.LineReader.EachLine (blank lines
// skipped, over-long lines and read errors counted, the context checked
// every 1024 lines), calling fn with each line and its number; it sets
// the summary's Bytes to the bytes read. The error is an unopenable
// file, ctx's (a read that a cancel cut short included) or fn's.
func readLines(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded, fn func(line []byte, n int64, cut bool) error) error {
	return withLog(ctx, run, dst, func(rc io.Reader) error {
		lr := contract.NewLineReader(rc, contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize))
		err := lr.EachLine(ctx, opts, 1024, &dst.Summary, func(line []byte, cut bool) error { return fn(line, lr.Line, cut) })
		dst.Summary.Bytes = lr.BytesRead
		if err == nil {
			err = ctx.Err()
		}
		return err
	})
}

// walkLog opens run's log for a reader of one JSON document (genai-perf,
// LoadGen, the record lists: dst reset, reads observing ctx) and calls
// walk with a walker over it, then sets the summary's Bytes to the bytes
// walked. A walk that fails is ctx's error when ctx is done; otherwise
// it is counted at the failing element's path (what, when the walk was
// not in one) and marks the run truncated, keeping what was read. The
// error is an unopenable file or ctx's.
func walkLog(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded, what string, walk func(w *scan.JSONWalker) error) error {
	return withLog(ctx, run, dst, func(rc io.Reader) error {
		w := scan.NewJSONWalker(rc, contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize))
		err := walk(w)
		dst.Summary.Bytes = w.Off
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			reportWalkError(&dst.Summary, err, what)
		}
		return nil
	})
}

// withLog resets dst for a reader that is not the endpoints decoder,
// opens run's log (decompressed, its reads observing ctx: a cancel ends
// a read within a line of any length) and gives it to read, closing it
// after. The error is an unopenable file or read's.
func withLog(ctx context.Context, run *contract.Run, dst *contract.Decoded, read func(rc io.Reader) error) error {
	rc, err := beginRead(dst, run)
	if err != nil {
		return err
	}
	defer rc.Close()
	contract.Observe(ctx, rc)
	return read(rc)
}

// fillRecords makes reqs, the requests of a JSON document's records,
// dst's samples: each record counts as a line and a request event.
func fillRecords(reqs []contract.Request, dst *contract.Decoded) {
	dst.Summary.Lines = int64(len(reqs))
	dst.Summary.Events["request"] = int64(len(reqs))
	contract.FillFromRequests(reqs, dst)
	contract.SummarizeSamples(dst)
}
