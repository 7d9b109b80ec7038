package foreign

import (
	"context"
	"errors"
	"fmt"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// readRecordList decodes run's log, a JSON list of per-request records
// (LLMPerf, inference-perf), into dst's samples, streaming one record at
// a time: each element's bytes go to decode with its index and its path
// ("[i]") for messages, and the requests it returns are the samples. An
// element over the value cap, or one the walker cannot read, is counted
// at its path; a list cut short keeps the records before the cut and
// marks the run partial. The error is an unopenable file or ctx's.
func readRecordList(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded,
	decode func(i int64, at string, raw []byte) (contract.Request, bool)) error {
	rc, err := beginRead(dst, run)
	if err != nil {
		return err
	}
	defer rc.Close()
	sum := &dst.Summary
	w := scan.NewJSONWalker(rc, contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize))
	var reqs []contract.Request
	err = w.Elements(func(i int) error {
		if i%1024 == 0 {
			if err := contract.Checkpoint(ctx, opts, w.Off); err != nil {
				return err
			}
		}
		at := fmt.Sprintf("[%d]", i)
		raw, err := w.RawValue()
		if errors.Is(err, scan.ErrValueTooLarge) {
			sum.AddProblem(contract.KindLineTooLong, 0, at)
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
	sum.Bytes = w.Off
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		reportWalkError(sum, err, "the list")
	}
	sum.Lines = int64(len(reqs))
	sum.Events["request"] = int64(len(reqs))
	contract.FillFromRequests(reqs, dst)
	contract.SummarizeSamples(dst)
	return nil
}
