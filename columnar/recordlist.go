package columnar

import (
	"context"
	"errors"
	"fmt"
)

// readRecordList decodes run's log, a JSON list of per-request records
// (LLMPerf, inference-perf), into dst's samples, streaming one record at
// a time: each element's bytes go to decode with its index and its path
// ("[i]") for messages, and the requests it returns are the samples. An
// element over the value cap, or one the walker cannot read, is counted
// at its path; a list cut short keeps the records before the cut and
// marks the run partial. The error is an unopenable file or ctx's.
func readRecordList(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded,
	decode func(i int64, at string, raw []byte) (request, bool)) error {
	rc, err := beginRead(dst, run)
	if err != nil {
		return err
	}
	defer rc.Close()
	sum := &dst.Summary
	w := newJSONWalker(rc, cmp0(opts.MaxLineSize, DefaultMaxLineSize))
	var reqs []request
	err = w.elements(func(i int) error {
		if i%1024 == 0 {
			if err := checkpoint(ctx, opts, w.off); err != nil {
				return err
			}
		}
		at := fmt.Sprintf("[%d]", i)
		raw, err := w.rawValue()
		if errors.Is(err, errValueTooLarge) {
			sum.addProblem(KindLineTooLong, 0, at)
			return nil
		}
		if err != nil {
			return &recordError{at: at, err: err}
		}
		if r, ok := decode(int64(i), at, raw); ok {
			reqs = append(reqs, r)
		}
		return nil
	})
	sum.Bytes = w.off
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		reportWalkError(sum, err, "the list")
	}
	sum.Lines = int64(len(reqs))
	sum.Events["request"] = int64(len(reqs))
	fillFromRequests(reqs, dst)
	summarizeSamples(dst)
	return nil
}
