package core

// Samples holds the performance-tracked samples of one run as parallel
// columns, one entry per sample, in issue order (the k-th sample newly
// issued while tracking was on, in file order, is entry k).
//
// It is the whole input of the detector: the columnar layer decodes an
// events log into it, and every super-pass size, warmup or window choice
// is derived from it without re-reading the log. Timestamps are int64
// nanoseconds as logged. Absent values use the sentinels documented per
// field so the columns stay flat (no pointers, no per-sample allocation).
//
// List orders inside a super-pass matter for the reference's compensated
// sums (detector spec §3.7): TTFT values are ordered by FirstTokenSeq,
// latency and TPOT values by CompleteSeq. Both are the 0-based ordinal of
// the event line in the file.
type Samples struct {
	// IssueNs is the first-seen ISSUED timestamp of the sample.
	IssueNs []int64
	// LastIssueNs is the maximum ISSUED timestamp, retries included.
	LastIssueNs []int64
	// LastEventNs is the maximum timestamp over the sample's accepted
	// events: its issues and retries, every recv_first while pending and
	// a timestamped COMPLETE.
	LastEventNs []int64

	// HasFirstToken reports whether a first token was recorded.
	HasFirstToken []bool
	// FirstTokenNs is the first recv_first timestamp (0 when absent).
	FirstTokenNs []int64
	// TTFTNs is first token − the issue time current at that moment
	// (after retries), 0 when HasFirstToken is false.
	TTFTNs []int64
	// WarmTTFT reports whether the TTFT counts as a warm-turn TTFT
	// (the recv_first record's turn is null/missing or > 1).
	WarmTTFT []bool
	// FirstTokenSeq is the line ordinal of the first recv_first (-1 when absent).
	FirstTokenSeq []int64

	// HasComplete reports whether a timestamped COMPLETE ended the sample
	// while it was pending.
	HasComplete []bool
	// CompleteNs is the COMPLETE timestamp (0 when absent).
	CompleteNs []int64
	// LatencyNs is complete − the issue time current at completion
	// (0 when HasComplete is false).
	LatencyNs []int64
	// CompleteSeq is the line ordinal of the COMPLETE (-1 when absent).
	CompleteSeq []int64

	// OutTokens is the token count of the output text after the first
	// chunk (detector spec §3.10), -1 when not counted or not applicable
	// (no first token, no completion, or empty text). A sample produces a
	// TPOT iff HasFirstToken && HasComplete && OutTokens > 0.
	OutTokens []int64
	// FullTokens is the token count of the whole output, -1 when not
	// counted: recorded by the log (AIPerf, GuideLLM, vLLM), or counted by
	// the endpoints decoder — reasoning, output and tool calls as the
	// agentic NATL path counts them for a turn with a conversation id, the
	// first chunk plus the text after it for a streamed single-turn
	// output, the whole text of a non-streamed one. System throughput
	// counts it (systemTokens).
	FullTokens []int64

	// Failed reports a failed request (an error event, or a COMPLETE with
	// null data).
	Failed []bool
	// FailureKind classifies every sample that did not complete
	// successfully (FailNone otherwise): the failed ones and those still
	// in flight when the log ended (FailIncomplete, with Failed false).
	FailureKind []FailureKind
	// FailCode is the HTTP status or the tool's error code of a failed
	// sample where the log records one (0 otherwise).
	FailCode []int32
	// InTokens is the prompt's token count where the log records it (-1
	// otherwise).
	InTokens []int64
	// ReasoningTokens is the reasoning part of FullTokens where the log
	// records it apart (-1 otherwise).
	ReasoningTokens []int64
	// Retries counts repeated ISSUED events while the sample was pending.
	Retries []int32
	// ConversationID is the agentic conversation id ("" when absent).
	ConversationID []string
	// Turn is the agentic turn number from the ISSUED/recv_first record
	// (-1 when absent).
	//
	// FailCode, InTokens, ReasoningTokens, ConversationID and Turn are
	// optional: each is either Len long or empty, empty meaning every
	// sample's value is the absent one (the decoder saves their 40 bytes a
	// sample for the logs that record none).
	Turn []int32
}

// Len returns the number of samples.
func (s *Samples) Len() int { return len(s.IssueNs) }
