package foreign

import (
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// guidellmLater are the request fields GuideLLM added after 0.5
// (vllm-project/guidellm src/guidellm/schemas/request_stats.py @
// ee7a77457ba668b4b5ccb40f110518829893b36a, GenerativeRequestStats'
// computed fields):
//
//   - time_to_first_output_token_ms (v0.7.0, 06cef291, PR #760):
//     1000·(timings.first_output_token_iteration − timings.request_start),
//     the first *content* token. src/guidellm/backends/openai/http.py sets
//     first_token_iteration on the first chunk of any kind (reasoning
//     included) and first_output_token_iteration on the first chunk with
//     content, so TTFOT ≥ TTFT, equal without reasoning. Our TTFT stays
//     time_to_first_token_ms — the first token of any kind, as every
//     other reader's — and TTFOT is kept as a whole-run summary.
//   - cached_tokens (13271326, PR #994): input_metrics.cached_tokens, the
//     server's usage.prompt_tokens_details.cached_tokens (prefix-cache
//     hits); no per-sample column, so a whole-run summary.
//
// GuideLLM records no reasoning token count: reasoning_output is text
// (cleared for unsampled requests) and output_tokens is the usage's
// completion_tokens, reasoning included. The reasoning_tokens column stays
// unknown.
type guidellmLater struct {
	TTFOTMs      contract.OptNum `json:"time_to_first_output_token_ms"`
	CachedTokens contract.OptNum `json:"cached_tokens"`
}

// guidellmRecorded sums a benchmark's guidellmLater fields.
type guidellmRecorded struct {
	ttfot, cached core.RecordedStat
}

// add counts one record's fields: TTFOT of a completed request (a value
// below its TTFT, or negative, is a problem at the field), cached tokens of
// any request that records a count.
func (s *guidellmRecorded) add(g *guidellmRequest, r *contract.Request, path string, sum *contract.Summary) {
	if g.TTFOTMs.Check(sum, 0, path+".time_to_first_output_token_ms") && r.Failure == core.FailNone {
		if v := g.TTFOTMs.Float; v < 0 || g.TTFTMs.Set && v < g.TTFTMs.Float {
			sum.AddProblem(contract.KindFieldType, 0, path+".time_to_first_output_token_ms")
		} else {
			s.ttfot.Add(v)
		}
	}
	if n := recordedCount(g.CachedTokens, sum, path+".cached_tokens"); n >= 0 {
		s.cached.Add(float64(n))
	}
}

// stats are the summaries of the fields some record carried.
func (s *guidellmRecorded) stats() []core.RecordedStat {
	var out []core.RecordedStat
	for _, st := range []core.RecordedStat{s.ttfot, s.cached} {
		if st.N > 0 {
			out = append(out, st)
		}
	}
	return out
}

func newGuideLLMRecorded() *guidellmRecorded {
	return &guidellmRecorded{
		ttfot:  core.RecordedStat{Field: "guidellm time_to_first_output_token_ms", Unit: "ms"},
		cached: core.RecordedStat{Field: "guidellm cached_tokens", Unit: "tokens"},
	}
}
