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
	var reqs []contract.Request
	err := walkLog(ctx, run, opts, dst, "the list", func(w *scan.JSONWalker) error {
		return w.Elements(func(i int) error {
			if i%1024 == 0 {
				if err := contract.Checkpoint(ctx, opts, w.Off); err != nil {
					return err
				}
			}
			at := fmt.Sprintf("[%d]", i)
			raw, err := w.RawValue()
			if errors.Is(err, scan.ErrValueTooLarge) {
				dst.Summary.AddProblem(contract.KindLineTooLong, 0, at)
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
	})
	if err != nil {
		return err
	}
	fillRecords(reqs, dst)
	return nil
}

// eachRecord walks the array at w's position, calling fn with each
// element's index, its path (prefix[i]) and its bytes. Every `every`
// elements it reports progress and stops on a cancelled context
// (Checkpoint); an element the walker cannot read ends the walk with a
// recordError at its path.
func eachRecord(ctx context.Context, opts contract.IngestOptions, w *scan.JSONWalker, every int, prefix string, fn func(i int, at string, raw []byte) error) error {
	return w.Elements(func(i int) error {
		if i%every == 0 {
			if err := contract.Checkpoint(ctx, opts, w.Off); err != nil {
				return err
			}
		}
		at := fmt.Sprintf("%s[%d]", prefix, i)
		raw, err := w.RawValue()
		if err != nil {
			return &recordError{at: at, err: err}
		}
		return fn(i, at, raw)
	})
}
