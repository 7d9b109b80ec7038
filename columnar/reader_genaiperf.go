package columnar

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/steadysweep/steadysweep/core"
)

// FormatGenAIPerf is genai-perf's profile_export.json (perf_analyzer's
// profile export): experiments[].requests[] with ns timestamps.
const FormatGenAIPerf Format = "genai-perf"

func init() {
	Formats = append(Formats, FormatGenAIPerf)
	moreFormats = append(moreFormats, FormatGenAIPerf)
	readers[FormatGenAIPerf] = genaiperfReader{}
}

// genaiperfReader reads genai-perf's profile_export.json, written by
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
type genaiperfReader struct{}

func (genaiperfReader) Format() Format { return FormatGenAIPerf }

// genaiperfRequest is one request of an experiment.
type genaiperfRequest struct {
	Timestamp          optNum   `json:"timestamp"`
	ResponseTimestamps []optNum `json:"response_timestamps"`
}

func (genaiperfReader) Read(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded) (core.RunInfo, error) {
	info := run.Info
	rc, err := beginRead(dst, run)
	if err != nil {
		return info, err
	}
	defer rc.Close()
	sum := &dst.Summary
	w := newJSONWalker(rc, cmp0(opts.MaxLineSize, DefaultMaxLineSize))
	var reqs []request
	experiments := 0
	mode, value, version := "", "", ""
	err = w.members(func(key string) error {
		switch key {
		case "version":
			raw, err := w.rawValue()
			if err == nil {
				version = string(raw)
			}
			return nil
		case "experiments":
			return w.elements(func(e int) error {
				experiments++
				if e > 0 {
					return w.skip()
				}
				return w.members(func(key string) error {
					switch key {
					case "experiment":
						var x struct {
							Mode  string `json:"mode"`
							Value optNum `json:"value"`
						}
						if err := w.decode(&x); err != nil {
							sum.addProblem(KindFieldType, 0, "experiments[0].experiment")
							return nil
						}
						mode, value = x.Mode, strconv.FormatFloat(x.Value.f, 'f', -1, 64)
						return nil
					case "requests":
						return w.elements(func(i int) error {
							if i%1024 == 0 {
								if err := checkpoint(ctx, opts, w.off); err != nil {
									return err
								}
							}
							at := fmt.Sprintf("experiments[0].requests[%d]", i)
							raw, err := w.rawValue()
							if err != nil {
								return &recordError{at: at, err: err}
							}
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
					return w.skip()
				})
			})
		}
		return w.skip()
	})
	sum.Bytes = w.off
	if err != nil {
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		reportWalkError(sum, err, "the export")
	}
	if experiments > 1 {
		run.Warnings = append(run.Warnings, fmt.Sprintf("%s holds %d experiments; the first is read", run.EventsPath, experiments))
	}
	sum.Lines = int64(len(reqs))
	sum.Events["request"] = int64(len(reqs))
	fillFromRequests(reqs, dst)
	summarizeSamples(dst)
	info.Streaming, info.EpochClock = true, true
	info.ToolVersion = "genai-perf profile export " + version
	info.ToolLoadPattern = mode + "=" + value
	switch mode {
	case "concurrency":
		info.LoadPattern = "concurrency"
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			info.Concurrency = concurrencyOf(v)
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
func genaiperfReq(rec *genaiperfRequest, i int64, at string, sum *Summary) (request, bool) {
	r := newRequest(i)
	r.id = strconv.FormatInt(i, 10)
	if !rec.Timestamp.check(sum, 0, at+".timestamp") || !rec.Timestamp.isInt {
		if !rec.Timestamp.bad {
			sum.addProblem(KindMissingField, 0, at+".timestamp")
		}
		return r, false
	}
	r.issueNs = rec.Timestamp.i
	var resp []int64
	for k, t := range rec.ResponseTimestamps {
		if !t.isInt || t.i < r.issueNs {
			sum.addProblem(KindFieldType, 0, fmt.Sprintf("%s.response_timestamps[%d]", at, k))
			continue
		}
		resp = append(resp, t.i)
	}
	if len(resp) == 0 {
		r.failure = core.FailError
		return r, true
	}
	r.firstNs, r.hasFirst = slices.Min(resp), true
	r.endNs, r.hasEnd = slices.Max(resp), true
	r.lastNs = r.endNs
	return r, true
}
