package foreign

import (
	"context"
	"encoding/json"
	"math"
	"strconv"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// LoadGenReader reads LoadGen's trace (mlcommons/inference
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
type LoadGenReader struct{}

func (LoadGenReader) Format() contract.Format { return contract.FormatLoadGenTrace }

// loadgenEvent is one trace event (the fields the samples need).
type loadgenEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	ID   json.RawMessage `json:"id"`
	TS   contract.OptNum `json:"ts"`
	Args struct {
		IssueStart contract.OptNum `json:"issue_start_ns"`
		Complete   contract.OptNum `json:"complete_ns"`
	} `json:"args"`
}

func (LoadGenReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	sum := &dst.Summary
	var reqs []contract.Request
	open := map[string]int{} // sample id → index in reqs awaiting its end
	begins := map[string]float64{}
	scale := 0.0 // ns per ts unit, from the first begin/end pair
	err := walkLog(ctx, run, opts, dst, "the trace", func(w *scan.JSONWalker) error {
		return w.Members(func(key string) error {
			if key != "traceEvents" {
				return w.Skip()
			}
			return eachRecord(ctx, opts, w, 4096, "traceEvents", func(i int, at string, raw []byte) error {
				var ev loadgenEvent
				if !unmarshalRecord(raw, at, &ev, sum) || ev.Name != "Sample" {
					return nil
				}
				id := string(ev.ID)
				switch ev.Ph {
				case "b":
					if !ev.TS.Check(sum, 0, at+".ts") || !ev.Args.IssueStart.Check(sum, 0, at+".args.issue_start_ns") ||
						!ev.Args.Complete.Check(sum, 0, at+".args.complete_ns") {
						if !ev.TS.Bad && !ev.Args.IssueStart.Bad && !ev.Args.Complete.Bad {
							sum.AddProblem(contract.KindMissingField, 0, at+".args")
						}
						return nil
					}
					if ev.Args.Complete.Float < ev.Args.IssueStart.Float || ev.Args.IssueStart.Float < 0 {
						sum.AddProblem(contract.KindFieldType, 0, at+".args.complete_ns")
						return nil
					}
					r := contract.NewRequest(int64(i))
					r.ID = id
					// Provisionally in ts units ×1: fixed once the scale is known.
					begins[id] = ev.TS.Float
					r.IssueNs, r.EndNs = int64(ev.Args.IssueStart.Float), int64(ev.Args.Complete.Float)
					r.HasEnd = true
					open[id] = len(reqs)
					reqs = append(reqs, r)
				case "e":
					k, ok := open[id]
					if !ok || !ev.TS.Set {
						return nil
					}
					delete(open, id)
					if scale == 0 {
						if d := ev.TS.Float - begins[id]; d > 0 {
							complete := float64(reqs[k].EndNs)
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
	})
	if err != nil {
		return info, err
	}
	if scale == 0 {
		scale = 1000 // Chrome's trace unit, µs
	}
	for i := range reqs {
		r := &reqs[i]
		sched, ok := contract.NsOf(begins[r.ID]*scale, "ns")
		if !ok {
			sum.AddProblem(contract.KindFieldType, 0, "traceEvents(Sample "+r.ID+").ts")
			continue
		}
		r.IssueNs, r.EndNs = sched+r.IssueNs, sched+r.EndNs
		r.LastNs = r.EndNs
		r.ID = "sample " + r.ID
	}
	fillRecords(reqs, dst)
	info.Streaming = false
	info.ToolVersion = "MLPerf LoadGen trace (ts unit " + strconv.FormatFloat(scale, 'f', -1, 64) + " ns)"
	return info, nil
}
