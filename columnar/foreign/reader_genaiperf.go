package foreign

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// GenAIPerfReader reads genai-perf's profile_export.json, written by
// perf_analyzer's ProfileDataExporter (triton-inference-server/perf_analyzer
// src/profile_data_exporter.cc):
//
//	{"experiments": [{"experiment": {"mode", "value"},
//	                  "requests": [{"timestamp", "request_inputs", "response_timestamps": [...], "response_outputs": [...]}],
//	                  "window_boundaries": [...]}],
//	 "version": ..., "service_kind": ..., "endpoint": ...}
//
// timestamp is when the request was sent and response_timestamps when
// each response (chunk) arrived, integer ns since the Unix epoch
// (std::chrono::system_clock, ProfileDataExporter::AddRequests): the first is
// the first token, the last the end. Token counts are not recorded
// (genai-perf tokenizes response_outputs itself), so they are unknown
// here. A request without responses is a failure. The first experiment
// is read (genai-perf runs one perf_analyzer experiment per export); more
// are reported.
type GenAIPerfReader struct{}

func (GenAIPerfReader) Format() contract.Format { return contract.FormatGenAIPerf }

// genaiperfRequest is one request of an experiment.
type genaiperfRequest struct {
	Timestamp          contract.OptNum   `json:"timestamp"`
	ResponseTimestamps []contract.OptNum `json:"response_timestamps"`
}

func (GenAIPerfReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	sum := &dst.Summary
	var reqs []contract.Request
	experiments := 0
	mode, value, version := "", "", ""
	err := walkLog(ctx, run, opts, dst, "the export", func(w *scan.JSONWalker) error {
		return w.Members(func(key string) error {
			switch key {
			case "version":
				raw, err := w.RawValue()
				if err == nil {
					version = string(raw)
				}
				return nil
			case "experiments":
				return w.Elements(func(e int) error {
					experiments++
					if e > 0 {
						return w.Skip()
					}
					return w.Members(func(key string) error {
						switch key {
						case "experiment":
							var x struct {
								Mode  string          `json:"mode"`
								Value contract.OptNum `json:"value"`
							}
							if err := w.Decode(&x); err != nil {
								sum.AddProblem(contract.KindFieldType, 0, "experiments[0].experiment")
								return nil
							}
							mode, value = x.Mode, strconv.FormatFloat(x.Value.Float, 'f', -1, 64)
							return nil
						case "requests":
							return eachRecord(ctx, opts, w, 1024, "experiments[0].requests", func(i int, at string, raw []byte) error {
								var rec genaiperfRequest
								if !unmarshalRecord(raw, at, &rec, sum) {
									return nil
								}
								if r, ok := genaiperfReq(&rec, int64(i), at, sum); ok {
									reqs = append(reqs, r)
								}
								return nil
							})
						}
						return w.Skip()
					})
				})
			}
			return w.Skip()
		})
	})
	if err != nil {
		return info, err
	}
	if experiments > 1 {
		run.Warnings = append(run.Warnings, fmt.Sprintf("%s holds %d experiments; the first is read", run.EventsPath, experiments))
	}
	fillRecords(reqs, dst)
	info.Streaming, info.EpochClock = true, true
	info.ToolVersion = "genai-perf profile export " + version
	info.ToolLoadPattern = mode + "=" + value
	switch mode {
	case "concurrency":
		info.LoadPattern = "concurrency"
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			info.Concurrency = contract.ConcurrencyOf(v)
		}
	case "request_rate":
		info.LoadPattern = "poisson"
		if v, err := strconv.ParseFloat(value, 64); err == nil && v > 0 {
			info.TargetQPS = v
		}
	}
	return info, nil
}

// genaiperfReq maps one request; ok is false (counted) without a send
// time.
func genaiperfReq(rec *genaiperfRequest, i int64, at string, sum *contract.Summary) (contract.Request, bool) {
	r := contract.NewRequest(i)
	r.ID = strconv.FormatInt(i, 10)
	if !rec.Timestamp.Check(sum, 0, at+".timestamp") || !rec.Timestamp.IsInt {
		if !rec.Timestamp.Bad {
			sum.AddProblem(contract.KindMissingField, 0, at+".timestamp")
		}
		return r, false
	}
	r.IssueNs = rec.Timestamp.Int
	var resp []int64
	for k, t := range rec.ResponseTimestamps {
		if !t.IsInt || t.Int < r.IssueNs {
			sum.AddProblem(contract.KindFieldType, 0, fmt.Sprintf("%s.response_timestamps[%d]", at, k))
			continue
		}
		resp = append(resp, t.Int)
	}
	if len(resp) == 0 {
		r.Failure = core.FailError
		return r, true
	}
	r.FirstNs, r.HasFirst = slices.Min(resp), true
	r.EndNs, r.HasEnd = slices.Max(resp), true
	r.LastNs = r.EndNs
	return r, true
}
