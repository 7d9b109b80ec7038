package contract

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/core"
)

// SchemaVersion is the version of Schema and of the run info stored with
// it; it is part of the cache key (3: endpoints failure kinds from the
// error events' texts, the decoder's impossible events in the summary,
// non-streamed outputs' whole counts; 4: RunInfo gained DatasetName,
// Endpoint and EpochClock; 5: an endpoints streamed output's whole count,
// first chunk included, in full_tokens; 6: RunInfo gained Recorded, the
// tools' per-request fields without a column).
const SchemaVersion = 6

// Metadata keys of the per-sample schema.
const (
	MetaSchemaVersion = "steadysweep.schema_version"
	MetaSummary       = "steadysweep.summary"
	MetaRunInfo       = "steadysweep.run_info"
)

// Column indices of Schema.
const (
	ColIssueOrder = iota
	ColUUID
	ColIssueNs
	ColLastIssueNs
	ColLastEventNs
	ColFirstTokenNs
	ColTTFTNs
	ColWarmTTFT
	ColFirstTokenSeq
	ColCompleteNs
	ColLatencyNs
	ColCompleteSeq
	ColFailed
	ColOutputTextBytes
	ColOutputTokens
	ColFullTokens
	ColConversationID
	ColTurn
	ColDatasetIndex
	ColRetries
	ColFailureKind
	ColFailureCode
	ColInputTokens
	ColReasoningTokens
	numCols
)

// Schema is the per-sample record batch: one row per performance-tracked
// sample, in issue order. Timestamps are int64 ns as logged; a null
// means "absent" where core.Samples uses a sentinel.
//
//	issue_order        int64         0-based position among tracked samples (super-pass = issue_order / S)
//	uuid               utf8          sample_uuid
//	issue_ns           int64         first-seen ISSUED timestamp
//	last_issue_ns      int64         max ISSUED timestamp, retries included
//	last_event_ns      int64         max timestamp of the sample's accepted events
//	first_token_ns     int64, null   first recv_first timestamp (null: no first token)
//	ttft_ns            int64, null   first token − issue time current then
//	warm_ttft          bool          turn of that recv_first is null or > 1
//	first_token_seq    int64, null   0-based line ordinal of that recv_first
//	complete_ns        int64, null   timestamp of the COMPLETE (null: none, or no timestamp)
//	latency_ns         int64, null   complete − issue time current then
//	complete_seq       int64, null   0-based line ordinal of the COMPLETE
//	failed             bool          error event or COMPLETE with null data
//	output_text_bytes  int64, null   bytes of the output text after the first chunk
//	output_tokens      int64, null   its token count (null: not counted or not applicable)
//	full_tokens        int64, null   tokens of the whole output (agentic runs)
//	conversation_id    utf8, null    agentic conversation id
//	turn               int32, null   agentic turn of the ISSUED line
//	dataset_index      int64, null   index from sample_idx_map.json
//	retries            int32         repeated ISSUED events while pending
//	failure_kind       utf8, null    core.FailureKind name (null: completed)
//	failure_code       int32, null   HTTP status or tool error code of a failure
//	input_tokens       int64, null   prompt tokens as the log records them
//	reasoning_tokens   int64, null   reasoning tokens recorded apart from the output
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "issue_order", Type: arrow.PrimitiveTypes.Int64},
	{Name: "uuid", Type: arrow.BinaryTypes.String},
	{Name: "issue_ns", Type: arrow.PrimitiveTypes.Int64},
	{Name: "last_issue_ns", Type: arrow.PrimitiveTypes.Int64},
	{Name: "last_event_ns", Type: arrow.PrimitiveTypes.Int64},
	{Name: "first_token_ns", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "ttft_ns", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "warm_ttft", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "first_token_seq", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "complete_ns", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "latency_ns", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "complete_seq", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "failed", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "output_text_bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "output_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "full_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "conversation_id", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "turn", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "dataset_index", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "retries", Type: arrow.PrimitiveTypes.Int32},
	{Name: "failure_kind", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "failure_code", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "input_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "reasoning_tokens", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// Table is the ingested form of one run: the per-sample record batch,
// the run's facts and the decode summary. Release it when done.
type Table struct {
	// Record holds the rows (Schema plus metadata).
	Record arrow.RecordBatch
	// Info is the run's RunInfo, with Partial set from the summary.
	Info core.RunInfo
	// Summary describes the decode.
	Summary Summary
}

// Release releases the record batch.
func (t *Table) Release() {
	if t.Record != nil {
		t.Record.Release()
		t.Record = nil
	}
}

// newTable builds the record batch from decoded columns. datasetIndex
// may be nil.
func newTable(mem memory.Allocator, d *Decoded, datasetIndex []int64, info core.RunInfo) (*Table, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	sum, err := json.Marshal(&d.Summary)
	if err != nil {
		return nil, fmt.Errorf("encode summary: %w", err)
	}
	inf, err := json.Marshal(&info)
	if err != nil {
		return nil, fmt.Errorf("encode run info: %w", err)
	}
	md := arrow.NewMetadata(
		[]string{MetaSchemaVersion, MetaSummary, MetaRunInfo},
		[]string{strconv.Itoa(SchemaVersion), string(sum), string(inf)},
	)
	schema := arrow.NewSchema(Schema.Fields(), &md)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	s := &d.Samples
	n := s.Len()
	b.Reserve(n)

	i64 := func(c int) *array.Int64Builder { return b.Field(c).(*array.Int64Builder) }
	opt := func(c int, v int64, valid bool) {
		if valid {
			i64(c).UnsafeAppend(v)
		} else {
			i64(c).UnsafeAppendBoolToBitmap(false)
		}
	}
	uuids := b.Field(ColUUID).(*array.StringBuilder)
	convs := b.Field(ColConversationID).(*array.StringBuilder)
	uuids.ReserveData(32 * n)
	warm := b.Field(ColWarmTTFT).(*array.BooleanBuilder)
	failed := b.Field(ColFailed).(*array.BooleanBuilder)
	turns := b.Field(ColTurn).(*array.Int32Builder)
	retries := b.Field(ColRetries).(*array.Int32Builder)
	kinds := b.Field(ColFailureKind).(*array.StringBuilder)
	codes := b.Field(ColFailureCode).(*array.Int32Builder)
	at := func(xs []int64, k int) int64 {
		if k < len(xs) {
			return xs[k]
		}
		return -1
	}
	var buf [32]byte
	for k := 0; k < n; k++ {
		i64(ColIssueOrder).UnsafeAppend(int64(k))
		if ext, ok := d.Ext[int32(k)]; ok {
			uuids.Append(ext)
		} else {
			const hex = "0123456789abcdef"
			for j, c := range d.Keys[k] {
				buf[2*j], buf[2*j+1] = hex[c>>4], hex[c&15]
			}
			uuids.BinaryBuilder.Append(buf[:])
		}
		i64(ColIssueNs).UnsafeAppend(s.IssueNs[k])
		i64(ColLastIssueNs).UnsafeAppend(s.LastIssueNs[k])
		i64(ColLastEventNs).UnsafeAppend(s.LastEventNs[k])
		ft := s.HasFirstToken[k]
		opt(ColFirstTokenNs, s.FirstTokenNs[k], ft)
		opt(ColTTFTNs, s.TTFTNs[k], ft)
		warm.UnsafeAppend(s.WarmTTFT[k])
		opt(ColFirstTokenSeq, s.FirstTokenSeq[k], ft)
		c := s.HasComplete[k]
		opt(ColCompleteNs, s.CompleteNs[k], c)
		opt(ColLatencyNs, s.LatencyNs[k], c)
		opt(ColCompleteSeq, s.CompleteSeq[k], c)
		failed.UnsafeAppend(s.Failed[k])
		tb := int64(-1)
		if k < len(d.TextBytes) {
			tb = d.TextBytes[k]
		}
		opt(ColOutputTextBytes, tb, tb >= 0)
		opt(ColOutputTokens, s.OutTokens[k], s.OutTokens[k] >= 0)
		opt(ColFullTokens, s.FullTokens[k], s.FullTokens[k] >= 0)
		if k < len(s.ConversationID) && s.ConversationID[k] != "" {
			convs.Append(s.ConversationID[k])
		} else {
			convs.AppendNull()
		}
		if k < len(s.Turn) && s.Turn[k] >= 0 {
			turns.UnsafeAppend(s.Turn[k])
		} else {
			turns.UnsafeAppendBoolToBitmap(false)
		}
		di := int64(-1)
		if datasetIndex != nil {
			di = datasetIndex[k]
		}
		opt(ColDatasetIndex, di, di >= 0)
		retries.UnsafeAppend(s.Retries[k])
		if k < len(s.FailureKind) && s.FailureKind[k] != core.FailNone {
			kinds.Append(s.FailureKind[k].String())
		} else {
			kinds.AppendNull()
		}
		if k < len(s.FailCode) && s.FailCode[k] != 0 {
			codes.UnsafeAppend(s.FailCode[k])
		} else {
			codes.UnsafeAppendBoolToBitmap(false)
		}
		in, rs := at(s.InTokens, k), at(s.ReasoningTokens, k)
		opt(ColInputTokens, in, in >= 0)
		opt(ColReasoningTokens, rs, rs >= 0)
	}
	return &Table{Record: b.NewRecordBatch(), Info: info, Summary: d.Summary}, nil
}

// Samples converts the table back to the detector's columns (absent
// values become the sentinels documented on core.Samples).
func (t *Table) Samples() core.Samples {
	rec := t.Record
	n := int(rec.NumRows())
	ints := func(c int, absent int64) []int64 {
		return int64Column(rec.Column(c).(*array.Int64), n, absent)
	}
	bools := func(c int) []bool {
		a := rec.Column(c).(*array.Boolean)
		out := make([]bool, n)
		for i := range out {
			out[i] = a.Value(i)
		}
		return out
	}
	valid := func(c int) []bool {
		a := rec.Column(c)
		out := make([]bool, n)
		if a.NullN() == 0 {
			for i := range out {
				out[i] = true
			}
			return out
		}
		for i := range out {
			out[i] = a.IsValid(i)
		}
		return out
	}
	s := core.Samples{
		IssueNs:       ints(ColIssueNs, 0),
		LastIssueNs:   ints(ColLastIssueNs, 0),
		LastEventNs:   ints(ColLastEventNs, 0),
		HasFirstToken: valid(ColFirstTokenNs),
		FirstTokenNs:  ints(ColFirstTokenNs, 0),
		TTFTNs:        ints(ColTTFTNs, 0),
		WarmTTFT:      bools(ColWarmTTFT),
		FirstTokenSeq: ints(ColFirstTokenSeq, -1),
		HasComplete:   valid(ColCompleteNs),
		CompleteNs:    ints(ColCompleteNs, 0),
		LatencyNs:     ints(ColLatencyNs, 0),
		CompleteSeq:   ints(ColCompleteSeq, -1),
		OutTokens:     ints(ColOutputTokens, -1),
		FullTokens:    ints(ColFullTokens, -1),
		Failed:        bools(ColFailed),
	}
	convs := rec.Column(ColConversationID).(*array.String)
	turns := rec.Column(ColTurn).(*array.Int32)
	retries := rec.Column(ColRetries).(*array.Int32)
	s.Retries = make([]int32, n)
	kinds := rec.Column(ColFailureKind).(*array.String)
	codes := rec.Column(ColFailureCode).(*array.Int32)
	s.FailureKind = make([]core.FailureKind, n)
	// The optional columns only where the table has a value (empty
	// otherwise: core.Samples), as the decoder leaves them.
	some := func(a arrow.Array) bool { return a.NullN() < n }
	if some(convs) {
		s.ConversationID = make([]string, n)
	}
	if some(turns) {
		s.Turn = make([]int32, n)
	}
	if some(codes) {
		s.FailCode = make([]int32, n)
	}
	if some(rec.Column(ColInputTokens)) {
		s.InTokens = ints(ColInputTokens, -1)
	}
	if some(rec.Column(ColReasoningTokens)) {
		s.ReasoningTokens = ints(ColReasoningTokens, -1)
	}
	for i := 0; i < n; i++ {
		if kinds.IsValid(i) {
			s.FailureKind[i], _ = core.FailureKindByName(kinds.Value(i))
		}
		if s.FailCode != nil && codes.IsValid(i) {
			s.FailCode[i] = codes.Value(i)
		}
		if s.ConversationID != nil && convs.IsValid(i) {
			s.ConversationID[i] = convs.Value(i)
		}
		if s.Turn != nil {
			s.Turn[i] = -1
			if turns.IsValid(i) {
				s.Turn[i] = turns.Value(i)
			}
		}
		s.Retries[i] = retries.Value(i)
	}
	return s
}

// int64Column returns a copy of the n values of a with absent at its
// nulls.
func int64Column(a *array.Int64, n int, absent int64) []int64 {
	vals := make([]int64, n)
	copy(vals, a.Int64Values())
	if a.NullN() > 0 {
		for i := range vals {
			if a.IsNull(i) {
				vals[i] = absent
			}
		}
	}
	return vals
}

// UUID returns the uuid of row i.
func (t *Table) UUID(i int) string {
	return t.Record.Column(ColUUID).(*array.String).Value(i)
}

// DatasetIndex returns the dataset index of row i (-1 when unknown).
func (t *Table) DatasetIndex(i int) int64 {
	a := t.Record.Column(ColDatasetIndex).(*array.Int64)
	if a.IsNull(i) {
		return -1
	}
	return a.Value(i)
}
