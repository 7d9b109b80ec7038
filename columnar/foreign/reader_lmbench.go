package foreign

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// LMBenchReader reads LMCache LMBenchmark's per-request CSV, the summary
// DataFrame of its multi-round QA client (synthetic-multi-round-qa/
// multi-round-qa.py, UserSession.summary, written with to_csv), one row
// per finished request, in two header generations:
//
//	gen 1  prompt_tokens,generation_tokens,ttft,generation_time,launch_time,finish_time
//	gen 2  prompt_tokens,generation_tokens,ttft,generation_time,user_id,question_id,launch_time,finish_time
//
// launch_time and finish_time are time.time() at send and after the last
// chunk (epoch s); ttft and generation_time are their differences from
// the first token (s). Columns are found by name, so their order does
// not matter. The rows are per user session, not in launch order: the
// samples are re-sorted by launch time. A row with no first token (ttft
// 0: the client's first_token_time stayed None) is a failed request; the
// CSV has no error column, and a request that raised is not written at
// all.
type LMBenchReader struct{}

func (LMBenchReader) Format() contract.Format { return contract.FormatLMBench }

// lmbenchColumns are the columns read, by name.
var lmbenchColumns = []string{"prompt_tokens", "generation_tokens", "ttft", "generation_time", "launch_time", "finish_time", "user_id", "question_id"}

// lmbenchRequired are the columns a row cannot do without.
var lmbenchRequired = []string{"ttft", "launch_time", "finish_time"}

func (LMBenchReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	sum := &dst.Summary
	col := map[string]int{}
	var reqs []contract.Request
	err := readLines(ctx, run, opts, dst, func(line []byte, n int64, cut bool) error {
		if len(col) == 0 {
			for i, name := range contract.CSVHeader(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))) {
				col[name] = i
			}
			for _, name := range lmbenchRequired {
				if _, ok := col[name]; !ok {
					return fmt.Errorf("%s:%d: LMBenchmark CSV header lacks column %q", run.EventsPath, n, name)
				}
			}
			return nil
		}
		fields := strings.Split(string(line), ",")
		if len(fields) != len(col) && cut {
			sum.AddProblem(contract.KindTruncatedLine, n, "")
			sum.Truncated, sum.TruncatedReason = true, "last line has no newline"
			return nil
		}
		if r, ok := lmbenchRow(fields, col, n, sum); ok {
			reqs = append(reqs, r)
		}
		return nil
	})
	if err != nil {
		return info, err
	}
	if len(col) == 0 {
		return info, fmt.Errorf("%s: empty LMBenchmark CSV (no header)", run.EventsPath)
	}
	clearSingleTurns(reqs)
	sum.Events["request"] = int64(len(reqs))
	contract.FillFromRequests(reqs, dst)
	contract.SummarizeSamples(dst)
	info.Streaming, info.EpochClock = true, true
	info.ToolVersion = "LMBenchmark CSV gen 1 (no user_id/question_id)"
	if _, ok := col["user_id"]; ok {
		info.ToolVersion = "LMBenchmark CSV gen 2 (user_id, question_id)"
	}
	// Each user session sends at fixed gaps (num_users/qps): a constant
	// rate overall, whose target the CSV does not record.
	info.LoadPattern, info.ToolLoadPattern = "constant", "multi-round QA at a target QPS (not recorded in the CSV)"
	return info, nil
}

// lmbenchRow maps one CSV row; ok is false (the problem counted at the
// row's line and column) when a required time is absent or not a number.
func lmbenchRow(fields []string, col map[string]int, line int64, sum *contract.Summary) (contract.Request, bool) {
	r := contract.NewRequest(line)
	r.ID = strconv.FormatInt(line, 10)
	val := func(name string) (float64, bool, bool) { // value, present, usable
		i, ok := col[name]
		if !ok {
			return 0, false, true
		}
		if i >= len(fields) || strings.TrimSpace(fields[i]) == "" {
			return 0, false, true
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(fields[i]), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			sum.AddProblem(contract.KindFieldType, line, name)
			return 0, false, false
		}
		return v, true, true
	}
	times := [3]float64{}
	for k, name := range lmbenchRequired {
		v, present, usable := val(name)
		if !present {
			if usable {
				sum.AddProblem(contract.KindMissingField, line, name)
			}
			return r, false
		}
		times[k] = v
	}
	ttft, launch, finish := times[0], times[1], times[2]
	issue, ok1 := contract.NsOf(launch, "s")
	end, ok2 := contract.NsOf(finish, "s")
	first, ok3 := contract.NsOf(ttft, "s")
	if !ok1 || !ok2 || !ok3 || launch < 0 {
		sum.AddProblem(contract.KindFieldType, line, "launch_time")
		return r, false
	}
	r.IssueNs, r.LastNs = issue, max(issue, end)
	tokens := func(name string) int64 {
		v, present, _ := val(name)
		if !present {
			return -1
		}
		n := count(&v)
		if n < 0 {
			sum.AddProblem(contract.KindFieldType, line, name)
		}
		return n
	}
	r.OutTokens, r.In = tokens("generation_tokens"), tokens("prompt_tokens")
	if u, present, _ := val("user_id"); present {
		r.Conv = strconv.FormatFloat(u, 'f', -1, 64)
		if q, present, _ := val("question_id"); present && q >= 1 && q < 1<<30 {
			r.Turn = int32(q)
		}
	}
	if ttft <= 0 {
		// first_token_time stayed None: the client saw no token.
		r.Failure = core.FailError
		return r, true
	}
	r.FirstNs, r.HasFirst = issue+first, true
	if end < r.FirstNs {
		sum.AddProblem(contract.KindFieldType, line, "finish_time")
		r.Failure = core.FailIncomplete
		return r, true
	}
	r.EndNs, r.HasEnd = end, true
	return r, true
}
