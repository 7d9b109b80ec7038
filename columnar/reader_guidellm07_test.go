package columnar

import (
	"strconv"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// glReq07 is a GuideLLM ≥ 0.7 request record: glReq with
// time_to_first_output_token_ms and cached_tokens (the computed fields of
// vllm-project/guidellm src/guidellm/schemas/request_stats.py @ ee7a7745).
func glReq07(id string, start, ttftMs, ttfotMs, latency float64, out, cached int) string {
	r := glReq(id, start, ttftMs, latency, out)
	return strings.Replace(r, `"prompt_tokens":10,`, `"prompt_tokens":10,"cached_tokens":`+strconv.Itoa(cached)+`,"time_to_first_output_token_ms":`+strconv.FormatFloat(ttfotMs, 'g', -1, 64)+`,`, 1)
}

// glCancelled is an incomplete record as GuideLLM writes one cancelled
// in flight (the shape of the one in
// ../shared/realdata/guidellm05-qwen3-30b-sync-incomplete: status
// cancelled, request_end_time = resolve_end, every duration and count
// null), or, with start < 0, one cancelled while still queued
// (request_start_time null: it falls back to resolve_start, unset).
func glCancelled(id string, start float64) string {
	st := "null"
	if start >= 0 {
		st = strconv.FormatFloat(start, 'g', -1, 64)
	}
	return `{"request_id":"` + id + `","request_start_time":` + st + `,"request_end_time":` + strconv.FormatFloat(max(start, 0)+0.02, 'g', -1, 64) +
		`,"request_latency":null,"time_to_first_token_ms":null,"time_to_first_output_token_ms":null,"prompt_tokens":null,"output_tokens":null,"cached_tokens":null,` +
		`"info":{"status":"cancelled","error":"Request was cancelled","timings":{"request_start":` + st + `,"first_token_iteration":null,"request_end":null}}}`
}

// TestGuideLLM07Fields: TTFT stays time_to_first_token_ms (the first token
// of any kind) while time_to_first_output_token_ms (the first content
// token, later after reasoning) and cached_tokens are summed into the run
// info's Recorded, to the values written; the reasoning_tokens column
// stays unknown (GuideLLM records no count). Cancelled incomplete records
// are incomplete samples with no TTFT or latency (never zeros), and one
// cancelled before it was sent is no sample and no problem.
func TestGuideLLM07Fields(t *testing.T) {
	succ := []string{
		glReq07("a", 10, 50, 50, 1, 5, 0),     // no reasoning: TTFOT = TTFT
		glReq07("b", 11, 60, 900, 2, 40, 64),  // reasoned for 840 ms
		glReq07("c", 12, 70, 1070, 2, 50, 32), // reasoned for 1000 ms
	}
	path := writeTemp(t, t.TempDir(), "r.json", glReport(glBench(`{"type_":"synchronous"}`, succ, nil,
		[]string{glCancelled("x", 13), glCancelled("q", -1)})))
	tab, s := ingestPath(t, path)
	checkColumns(t, &s)
	if s.Len() != 4 || tab.Summary.ProblemTotal() != 0 {
		t.Fatalf("%d samples (want 3 completed + 1 cancelled in flight), problems %s", s.Len(), warningsOf(tab))
	}
	for i, want := range []int64{50e6, 60e6, 70e6} {
		if !s.HasFirstToken[i] || s.TTFTNs[i] != want {
			t.Errorf("sample %d: TTFT %d ns, want time_to_first_token_ms %d ns", i, s.TTFTNs[i], want)
		}
	}
	for i := range s.Len() {
		if len(s.ReasoningTokens) > 0 && s.ReasoningTokens[i] != -1 {
			t.Errorf("sample %d: reasoning tokens %d, GuideLLM records none", i, s.ReasoningTokens[i])
		}
	}
	if s.FailureKind[3] != core.FailIncomplete || s.Failed[3] || s.HasFirstToken[3] || s.HasComplete[3] ||
		s.IssueNs[3] != 13e9 || s.FullTokens[3] != -1 {
		t.Errorf("cancelled in flight: kind %v failed %v first %v complete %v issue %d tokens %d",
			s.FailureKind[3], s.Failed[3], s.HasFirstToken[3], s.HasComplete[3], s.IssueNs[3], s.FullTokens[3])
	}
	if n := tab.Summary.Events["incomplete_unsent"]; n != 1 {
		t.Errorf("incomplete_unsent %d, want 1 (the queued one)", n)
	}
	want := []core.RecordedStat{
		{Field: "guidellm time_to_first_output_token_ms", Unit: "ms", N: 3, Sum: 50 + 900 + 1070, Max: 1070},
		{Field: "guidellm cached_tokens", Unit: "tokens", N: 3, Sum: 96, Max: 64},
	}
	if got := tab.Info.Recorded; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("recorded %+v, want %+v", got, want)
	}
}

// TestGuideLLM07Malformed: a bad ≥ 0.7 field is one problem naming the
// file, the record's path and the field; the record is still a sample.
func TestGuideLLM07Malformed(t *testing.T) {
	good := glReq07("a", 10, 50, 50, 1, 5, 0)
	for _, tc := range []struct{ name, record, want string }{
		{"TTFOT a string", strings.Replace(glReq07("x", 11, 60, 90, 1, 5, 3), `"time_to_first_output_token_ms":90`, `"time_to_first_output_token_ms":"90"`, 1),
			`benchmarks[0].requests.successful[1].time_to_first_output_token_ms: unexpected field type`},
		{"TTFOT before the first token", glReq07("x", 11, 60, 59, 1, 5, 3),
			`benchmarks[0].requests.successful[1].time_to_first_output_token_ms: unexpected field type`},
		{"cached tokens fractional", strings.Replace(glReq07("x", 11, 60, 90, 1, 5, 3), `"cached_tokens":3`, `"cached_tokens":2.5`, 1),
			`benchmarks[0].requests.successful[1].cached_tokens: unexpected field type`},
		{"cached tokens negative", glReq07("x", 11, 60, 90, 1, 5, -4),
			`benchmarks[0].requests.successful[1].cached_tokens: unexpected field type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "r.json", glReport(glBench(`{"type_":"synchronous"}`, []string{good, tc.record}, nil, nil)))
			tab, s := ingestPath(t, path)
			if s.Len() != 2 || tab.Summary.ProblemTotal() != 1 || !strings.Contains(warningsOf(tab), path+"#0: "+tc.want) {
				t.Errorf("%d samples, problems %q, want %q", s.Len(), warningsOf(tab), path+"#0: "+tc.want)
			}
		})
	}
}
