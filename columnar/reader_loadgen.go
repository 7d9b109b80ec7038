package columnar

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/steadysweep/steadysweep/core"
)

// FormatLoadGenTrace is MLPerf LoadGen's mlperf_log_trace.json: a Chrome
// trace whose "Sample" events time each sample.
const FormatLoadGenTrace Format = "loadgen-trace"

func init() {
	Formats = append(Formats, FormatLoadGenTrace)
	moreFormats = append(moreFormats, FormatLoadGenTrace)
	readers[FormatLoadGenTrace] = loadgenReader{}
}

// loadgenReader reads LoadGen's trace (mlcommons/inference
// loadgen/logging.h AsyncLog::TraceSample, loadgen/loadgen.cc): for each
// sample an async begin event {"name": "Sample", "ph": "b", "id", "ts",
// "args": {"sample_seq", "query_seq", "sample_idx"|"idx",
// "issue_start_ns", "complete_ns"}} and its end {"ph": "e", "id", "ts"}.
// The begin's ts is the query's scheduled time since the trace origin
// (PerfClock); issue_start_ns and complete_ns are ns after that
// scheduled time. So issue = scheduled + issue_start_ns and completion =
// scheduled + complete_ns. ts's unit is taken from the first sample: the
// end's ts minus the begin's is complete_ns in ns or in µs (older traces
// say "displayTimeUnit": "ns"; Chrome's own unit is µs). The trace has
// no first-token time, no token counts and no failures: TTFT and TPOT
// are unknown, and every traced sample completed.
type loadgenReader struct{}

func (loadgenReader) Format() Format { return FormatLoadGenTrace }

// loadgenEvent is one trace event (the fields the samples need).
type loadgenEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	ID   json.RawMessage `json:"id"`
	TS   optNum          `json:"ts"`
	Args struct {
		IssueStart optNum `json:"issue_start_ns"`
		Complete   optNum `json:"complete_ns"`
	} `json:"args"`
}

func (loadgenReader) Read(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded) (core.RunInfo, error) {
	info := run.Info
	rc, err := beginRead(dst, run)
	if err != nil {
		return info, err
	}
	defer rc.Close()
	sum := &dst.Summary
	w := newJSONWalker(rc, cmp0(opts.MaxLineSize, DefaultMaxLineSize))
	var reqs []request
	open := map[string]int{} // sample id → index in reqs awaiting its end
	begins := map[string]float64{}
	scale := 0.0 // ns per ts unit, from the first begin/end pair
	err = w.members(func(key string) error {
		if key != "traceEvents" {
			return w.skip()
		}
		return w.elements(func(i int) error {
			if i%4096 == 0 {
				if err := checkpoint(ctx, opts, w.off); err != nil {
					return err
				}
			}
			at := fmt.Sprintf("traceEvents[%d]", i)
			raw, err := w.rawValue()
			if err != nil {
				return &recordError{at: at, err: err}
			}
			var ev loadgenEvent
			if !unmarshalRecord(raw, at, &ev, sum) || ev.Name != "Sample" {
				return nil
			}
			id := string(ev.ID)
			switch ev.Ph {
			case "b":
				if !ev.TS.check(sum, 0, at+".ts") || !ev.Args.IssueStart.check(sum, 0, at+".args.issue_start_ns") ||
					!ev.Args.Complete.check(sum, 0, at+".args.complete_ns") {
					if !ev.TS.bad && !ev.Args.IssueStart.bad && !ev.Args.Complete.bad {
						sum.addProblem(KindMissingField, 0, at+".args")
					}
					return nil
				}
				if ev.Args.Complete.f < ev.Args.IssueStart.f || ev.Args.IssueStart.f < 0 {
					sum.addProblem(KindFieldType, 0, at+".args.complete_ns")
					return nil
				}
				r := newRequest(int64(i))
				r.id = id
				// Provisionally in ts units ×1: fixed once the scale is known.
				begins[id] = ev.TS.f
				r.issueNs, r.endNs = int64(ev.Args.IssueStart.f), int64(ev.Args.Complete.f)
				r.hasEnd = true
				open[id] = len(reqs)
				reqs = append(reqs, r)
			case "e":
				k, ok := open[id]
				if !ok || !ev.TS.set {
					return nil
				}
				delete(open, id)
				if scale == 0 {
					if d := ev.TS.f - begins[id]; d > 0 {
						complete := float64(reqs[k].endNs)
						if math.Abs(d-complete) <= math.Max(2, complete*1e-6) {
							scale = 1
						} else {
							scale = 1000
						}
					}
				}
			}
			return nil
		})
	})
	sum.Bytes = w.off
	if err != nil {
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		reportWalkError(sum, err, "the trace")
	}
	if scale == 0 {
		scale = 1000 // Chrome's trace unit, µs
	}
	for i := range reqs {
		r := &reqs[i]
		sched, ok := nsOf(begins[r.id]*scale, "ns")
		if !ok {
			sum.addProblem(KindFieldType, 0, "traceEvents(Sample "+r.id+").ts")
			continue
		}
		r.issueNs, r.endNs = sched+r.issueNs, sched+r.endNs
		r.lastNs = r.endNs
		r.id = "sample " + r.id
	}
	sum.Lines = int64(len(reqs))
	sum.Events["request"] = int64(len(reqs))
	fillFromRequests(reqs, dst)
	summarizeSamples(dst)
	info.Streaming = false
	info.ToolVersion = "MLPerf LoadGen trace (ts unit " + strconv.FormatFloat(scale, 'f', -1, 64) + " ns)"
	return info, nil
}
