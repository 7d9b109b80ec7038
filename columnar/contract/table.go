package contract

import (
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
	NumCols
)

// ColumnType is the type of a Table column's values, and so which of a
// Column's value slices holds them.
type ColumnType uint8

// The column types.
const (
	TypeInt64  ColumnType = iota + 1 // Column.Int64s
	TypeInt32                        // Column.Int32s
	TypeBool                         // Column.Bools
	TypeString                       // utf8: Column.Offsets and Column.Bytes
)

// Field describes one column of Schema.
type Field struct {
	Name     string
	Type     ColumnType
	Nullable bool // the column has Valid
}

// Schema lists the per-sample table's columns, indexed by the Col
// constants: one row per performance-tracked sample, in issue order.
// Timestamps are int64 ns as logged; a null means "absent" where
// core.Samples uses a sentinel.
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
var Schema = []Field{
	{"issue_order", TypeInt64, false},
	{"uuid", TypeString, false},
	{"issue_ns", TypeInt64, false},
	{"last_issue_ns", TypeInt64, false},
	{"last_event_ns", TypeInt64, false},
	{"first_token_ns", TypeInt64, true},
	{"ttft_ns", TypeInt64, true},
	{"warm_ttft", TypeBool, false},
	{"first_token_seq", TypeInt64, true},
	{"complete_ns", TypeInt64, true},
	{"latency_ns", TypeInt64, true},
	{"complete_seq", TypeInt64, true},
	{"failed", TypeBool, false},
	{"output_text_bytes", TypeInt64, true},
	{"output_tokens", TypeInt64, true},
	{"full_tokens", TypeInt64, true},
	{"conversation_id", TypeString, true},
	{"turn", TypeInt32, true},
	{"dataset_index", TypeInt64, true},
	{"retries", TypeInt32, false},
	{"failure_kind", TypeString, true},
	{"failure_code", TypeInt32, true},
	{"input_tokens", TypeInt64, true},
	{"reasoning_tokens", TypeInt64, true},
}

// Column holds one column of a Table: Rows values in the slice its
// Field's Type names (the others empty), and Valid when it is nullable.
type Column struct {
	Int64s []int64
	Int32s []int32
	Bools  []bool
	// Offsets and Bytes hold a utf8 column: row i is
	// Bytes[Offsets[i]:Offsets[i+1]] (Offsets has Rows+1 entries; a null
	// row is empty).
	Offsets []int32
	Bytes   []byte
	// Valid[i] is false where row i is null: Rows entries for a nullable
	// column, empty for the others.
	Valid []bool
}

// IsValid says whether row i holds a value (not null).
func (c *Column) IsValid(i int) bool { return len(c.Valid) == 0 || c.Valid[i] }

// NullN is the number of null rows.
func (c *Column) NullN() int {
	n := 0
	for _, v := range c.Valid {
		if !v {
			n++
		}
	}
	return n
}

// String returns row i of a utf8 column ("" when null).
func (c *Column) String(i int) string { return string(c.Bytes[c.Offsets[i]:c.Offsets[i+1]]) }

// reset empties c, keeping its buffers' capacity.
func (c *Column) reset() {
	*c = Column{Int64s: c.Int64s[:0], Int32s: c.Int32s[:0], Bools: c.Bools[:0],
		Offsets: c.Offsets[:0], Bytes: c.Bytes[:0], Valid: c.Valid[:0]}
}

// Table is the ingested form of one run for export: the per-sample
// columns (Schema) in plain slices, the run's facts and the decode
// summary.
type Table struct {
	// Rows is the number of samples.
	Rows int
	// Columns holds the rows, indexed by the Col constants (Schema).
	Columns [NumCols]Column
	// Info is the run's RunInfo, with Partial set from the summary.
	Info core.RunInfo
	// Summary describes the decode.
	Summary Summary
}

// Table builds the per-sample table of l.
func (l *Loaded) Table() *Table {
	t := new(Table)
	l.FillTable(t)
	return t
}

// FillTable makes t the per-sample table of l, appending into t's column
// buffers (a caller exporting run after run reuses one Table): no
// allocation per sample.
func (l *Loaded) FillTable(t *Table) {
	d := &l.Decoded
	s := &d.Samples
	n := s.Len()
	t.Rows, t.Info, t.Summary = n, l.Info, d.Summary
	for c := range t.Columns {
		t.Columns[c].reset()
		if Schema[c].Nullable {
			t.Columns[c].Valid = appendN(t.Columns[c].Valid, true, n)
		}
	}
	cols := &t.Columns
	at := func(xs []int64, k int) int64 {
		if k < len(xs) {
			return xs[k]
		}
		return -1
	}
	// ints appends n values of an int64 column, null where valid says.
	ints := func(c int, v func(k int) (int64, bool)) {
		col := &cols[c]
		for k := range n {
			x, ok := v(k)
			if !ok {
				x, col.Valid[k] = 0, false
			}
			col.Int64s = append(col.Int64s, x)
		}
	}
	whenFirst := func(xs []int64) func(int) (int64, bool) {
		return func(k int) (int64, bool) { return xs[k], s.HasFirstToken[k] }
	}
	whenComplete := func(xs []int64) func(int) (int64, bool) {
		return func(k int) (int64, bool) { return xs[k], s.HasComplete[k] }
	}
	nonNegative := func(xs []int64) func(int) (int64, bool) {
		return func(k int) (int64, bool) { v := at(xs, k); return v, v >= 0 }
	}
	ints(ColIssueOrder, func(k int) (int64, bool) { return int64(k), true })
	ints(ColIssueNs, func(k int) (int64, bool) { return s.IssueNs[k], true })
	ints(ColLastIssueNs, func(k int) (int64, bool) { return s.LastIssueNs[k], true })
	ints(ColLastEventNs, func(k int) (int64, bool) { return s.LastEventNs[k], true })
	ints(ColFirstTokenNs, whenFirst(s.FirstTokenNs))
	ints(ColTTFTNs, whenFirst(s.TTFTNs))
	ints(ColFirstTokenSeq, whenFirst(s.FirstTokenSeq))
	ints(ColCompleteNs, whenComplete(s.CompleteNs))
	ints(ColLatencyNs, whenComplete(s.LatencyNs))
	ints(ColCompleteSeq, whenComplete(s.CompleteSeq))
	ints(ColOutputTextBytes, nonNegative(d.TextBytes))
	ints(ColOutputTokens, nonNegative(s.OutTokens))
	ints(ColFullTokens, nonNegative(s.FullTokens))
	ints(ColDatasetIndex, nonNegative(l.DatasetIndex))
	ints(ColInputTokens, nonNegative(s.InTokens))
	ints(ColReasoningTokens, nonNegative(s.ReasoningTokens))
	cols[ColWarmTTFT].Bools = append(cols[ColWarmTTFT].Bools, s.WarmTTFT[:n]...)
	cols[ColFailed].Bools = append(cols[ColFailed].Bools, s.Failed[:n]...)
	cols[ColRetries].Int32s = append(cols[ColRetries].Int32s, s.Retries[:n]...)
	// int32s appends n values of an int32 column, null where the value
	// is not above min (or the optional slice is empty).
	int32s := func(c int, xs []int32, min int32) {
		col := &cols[c]
		for k := range n {
			x := int32(0)
			if k < len(xs) && xs[k] > min {
				x = xs[k]
			} else {
				col.Valid[k] = false
			}
			col.Int32s = append(col.Int32s, x)
		}
	}
	int32s(ColTurn, s.Turn, -1)
	int32s(ColFailureCode, s.FailCode, 0)
	// strs appends n values of a utf8 column, null where v gives none.
	strs := func(c int, v func(k int, b []byte) ([]byte, bool)) {
		col := &cols[c]
		col.Offsets = append(col.Offsets, 0)
		for k := range n {
			var ok bool
			if col.Bytes, ok = v(k, col.Bytes); !ok {
				col.Valid[k] = false
			}
			col.Offsets = append(col.Offsets, int32(len(col.Bytes)))
		}
	}
	strs(ColUUID, func(k int, b []byte) ([]byte, bool) {
		if ext, ok := d.Ext[int32(k)]; ok {
			return append(b, ext...), true
		}
		const hex = "0123456789abcdef"
		for _, c := range d.Keys[k] {
			b = append(b, hex[c>>4], hex[c&15])
		}
		return b, true
	})
	strs(ColConversationID, func(k int, b []byte) ([]byte, bool) {
		if k < len(s.ConversationID) && s.ConversationID[k] != "" {
			return append(b, s.ConversationID[k]...), true
		}
		return b, false
	})
	strs(ColFailureKind, func(k int, b []byte) ([]byte, bool) {
		if k < len(s.FailureKind) && s.FailureKind[k] != core.FailNone {
			return append(b, s.FailureKind[k].String()...), true
		}
		return b, false
	})
}

// appendN appends n copies of v to xs.
func appendN[T any](xs []T, v T, n int) []T {
	for range n {
		xs = append(xs, v)
	}
	return xs
}

// Samples converts the table back to the detector's columns (absent
// values become the sentinels documented on core.Samples).
func (t *Table) Samples() core.Samples {
	n := t.Rows
	cols := &t.Columns
	ints := func(c int, absent int64) []int64 {
		col := &cols[c]
		out := make([]int64, n)
		copy(out, col.Int64s)
		for i := range out {
			if !col.IsValid(i) {
				out[i] = absent
			}
		}
		return out
	}
	valid := func(c int) []bool {
		out := make([]bool, n)
		for i := range out {
			out[i] = cols[c].IsValid(i)
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
		WarmTTFT:      append([]bool(nil), cols[ColWarmTTFT].Bools[:n]...),
		FirstTokenSeq: ints(ColFirstTokenSeq, -1),
		HasComplete:   valid(ColCompleteNs),
		CompleteNs:    ints(ColCompleteNs, 0),
		LatencyNs:     ints(ColLatencyNs, 0),
		CompleteSeq:   ints(ColCompleteSeq, -1),
		OutTokens:     ints(ColOutputTokens, -1),
		FullTokens:    ints(ColFullTokens, -1),
		Failed:        append([]bool(nil), cols[ColFailed].Bools[:n]...),
		Retries:       append([]int32(nil), cols[ColRetries].Int32s[:n]...),
		FailureKind:   make([]core.FailureKind, n),
	}
	if s.WarmTTFT == nil { // n == 0: empty, not nil, as make gives
		s.WarmTTFT, s.Failed, s.Retries = []bool{}, []bool{}, []int32{}
	}
	// The optional columns only where the table has a value (empty
	// otherwise: core.Samples), as the decoder leaves them.
	some := func(c int) bool { return cols[c].NullN() < n }
	if some(ColConversationID) {
		s.ConversationID = make([]string, n)
	}
	if some(ColTurn) {
		s.Turn = make([]int32, n)
	}
	if some(ColFailureCode) {
		s.FailCode = make([]int32, n)
	}
	if some(ColInputTokens) {
		s.InTokens = ints(ColInputTokens, -1)
	}
	if some(ColReasoningTokens) {
		s.ReasoningTokens = ints(ColReasoningTokens, -1)
	}
	kinds, codes, convs, turns := &cols[ColFailureKind], &cols[ColFailureCode], &cols[ColConversationID], &cols[ColTurn]
	for i := 0; i < n; i++ {
		if kinds.IsValid(i) {
			s.FailureKind[i], _ = core.FailureKindByName(kinds.String(i))
		}
		if s.FailCode != nil && codes.IsValid(i) {
			s.FailCode[i] = codes.Int32s[i]
		}
		if s.ConversationID != nil && convs.IsValid(i) {
			s.ConversationID[i] = convs.String(i)
		}
		if s.Turn != nil {
			s.Turn[i] = -1
			if turns.IsValid(i) {
				s.Turn[i] = turns.Int32s[i]
			}
		}
	}
	return s
}

// UUID returns the uuid of row i.
func (t *Table) UUID(i int) string { return t.Columns[ColUUID].String(i) }

// DatasetIndex returns the dataset index of row i (-1 when unknown).
func (t *Table) DatasetIndex(i int) int64 {
	c := &t.Columns[ColDatasetIndex]
	if !c.IsValid(i) {
		return -1
	}
	return c.Int64s[i]
}
