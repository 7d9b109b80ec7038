package cache

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// A cache entry (cache.go) is one Arrow IPC record batch laid out to be
// used where it lies once read, not the per-sample Schema of Table
// (which is for export: hex uuids, nulls, every column always):
//
//   - every column is core.Samples' own, with its sentinels, no nulls;
//     the int64 and int32 columns become the Samples' slices without a
//     copy, the bool and failure-kind columns (uint8 here) too;
//   - uuid16 holds the packed uuids (fixed_size_binary(16)); uuid_ext,
//     only when some uuid is not 32 lowercase hex digits, those uuids;
//   - a column core.Samples leaves empty (the optional ones) is left
//     out, and last_issue_ns when it equals issue_ns (no sample was
//     re-issued): the Samples then share one slice.
//
// For the 183 MB bench run that is 113 bytes a sample where Schema takes
// 185, and no per-sample work on load.
const (
	entryUUID     = "uuid16"
	entryUUIDExt  = "uuid_ext"
	entryTextSize = "output_text_bytes"
	entryLastIss  = "last_issue_ns"
)

// entryColumn is a fixed-width column of an entry and the Samples column
// it is; an optional one may be absent (core.Samples: Len long or empty).
type entryColumn[T any] struct {
	name     string
	optional bool
	col      func(s *core.Samples) *[]T
}

// entryInt64s lists the int64 columns in entry order.
func entryInt64s() []entryColumn[int64] {
	return []entryColumn[int64]{
		{"issue_ns", false, func(s *core.Samples) *[]int64 { return &s.IssueNs }},
		{entryLastIss, true, func(s *core.Samples) *[]int64 { return &s.LastIssueNs }}, // absent: issue_ns
		{"last_event_ns", false, func(s *core.Samples) *[]int64 { return &s.LastEventNs }},
		{"first_token_ns", false, func(s *core.Samples) *[]int64 { return &s.FirstTokenNs }},
		{"ttft_ns", false, func(s *core.Samples) *[]int64 { return &s.TTFTNs }},
		{"first_token_seq", false, func(s *core.Samples) *[]int64 { return &s.FirstTokenSeq }},
		{"complete_ns", false, func(s *core.Samples) *[]int64 { return &s.CompleteNs }},
		{"latency_ns", false, func(s *core.Samples) *[]int64 { return &s.LatencyNs }},
		{"complete_seq", false, func(s *core.Samples) *[]int64 { return &s.CompleteSeq }},
		{"output_tokens", false, func(s *core.Samples) *[]int64 { return &s.OutTokens }},
		{"full_tokens", false, func(s *core.Samples) *[]int64 { return &s.FullTokens }},
		{"input_tokens", true, func(s *core.Samples) *[]int64 { return &s.InTokens }},
		{"reasoning_tokens", true, func(s *core.Samples) *[]int64 { return &s.ReasoningTokens }},
	}
}

// entryBools lists the bool columns (stored as uint8 0/1), none optional.
func entryBools() []entryColumn[bool] {
	return []entryColumn[bool]{
		{"has_first_token", false, func(s *core.Samples) *[]bool { return &s.HasFirstToken }},
		{"warm_ttft", false, func(s *core.Samples) *[]bool { return &s.WarmTTFT }},
		{"has_complete", false, func(s *core.Samples) *[]bool { return &s.HasComplete }},
		{"failed", false, func(s *core.Samples) *[]bool { return &s.Failed }},
	}
}

// entryInt32s lists the int32 columns.
func entryInt32s() []entryColumn[int32] {
	return []entryColumn[int32]{
		{"retries", false, func(s *core.Samples) *[]int32 { return &s.Retries }},
		{"failure_code", true, func(s *core.Samples) *[]int32 { return &s.FailCode }},
		{"turn", true, func(s *core.Samples) *[]int32 { return &s.Turn }},
	}
}

// EntryRecord builds the entry record of l. Its arrays are views of l's
// columns (no copy): write it before l changes.
func EntryRecord(l *contract.Loaded) (arrow.RecordBatch, error) {
	s := &l.Samples
	n := s.Len()
	if len(l.Keys) != n {
		return nil, fmt.Errorf("entry: %d keys for %d samples", len(l.Keys), n)
	}
	sum, err := json.Marshal(&l.Summary)
	if err != nil {
		return nil, fmt.Errorf("encode summary: %w", err)
	}
	inf, err := json.Marshal(&l.Info)
	if err != nil {
		return nil, fmt.Errorf("encode run info: %w", err)
	}
	var (
		fields []arrow.Field
		cols   []arrow.Array
	)
	add := func(name string, typ arrow.DataType, width int, b []byte) error {
		if len(b) != width*n {
			return fmt.Errorf("entry: column %s has %d bytes for %d samples", name, len(b), n)
		}
		d := array.NewData(typ, n, []*memory.Buffer{nil, memory.NewBufferBytes(b)}, nil, 0, 0)
		defer d.Release()
		fields = append(fields, arrow.Field{Name: name, Type: typ})
		cols = append(cols, array.MakeFromData(d))
		return nil
	}
	err = add(entryUUID, &arrow.FixedSizeBinaryType{ByteWidth: 16}, 16, BytesOf(l.Keys))
	for _, c := range entryInt64s() {
		v := *c.col(s)
		if err != nil || (c.optional && len(v) == 0) || (c.name == entryLastIss && slices.Equal(v, s.IssueNs)) {
			continue
		}
		err = add(c.name, arrow.PrimitiveTypes.Int64, 8, BytesOf(v))
	}
	if err == nil {
		err = add(entryTextSize, arrow.PrimitiveTypes.Int64, 8, BytesOf(l.TextBytes))
	}
	for _, c := range entryBools() {
		if err == nil {
			err = add(c.name, arrow.PrimitiveTypes.Uint8, 1, BytesOf(*c.col(s)))
		}
	}
	if err == nil {
		err = add("failure_kind", arrow.PrimitiveTypes.Uint8, 1, BytesOf(s.FailureKind))
	}
	for _, c := range entryInt32s() {
		if v := *c.col(s); err == nil && (!c.optional || len(v) > 0) {
			err = add(c.name, arrow.PrimitiveTypes.Int32, 4, BytesOf(v))
		}
	}
	if err == nil && len(s.ConversationID) > 0 {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		b.AppendValues(s.ConversationID, nil)
		fields = append(fields, arrow.Field{Name: "conversation_id", Type: arrow.BinaryTypes.String})
		cols = append(cols, b.NewArray())
		b.Release()
	}
	if err == nil && len(l.Ext) > 0 {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		for i := range n {
			if u, ok := l.Ext[int32(i)]; ok {
				b.Append(u)
			} else {
				b.AppendNull()
			}
		}
		fields = append(fields, arrow.Field{Name: entryUUIDExt, Type: arrow.BinaryTypes.String, Nullable: true})
		cols = append(cols, b.NewArray())
		b.Release()
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	if err != nil {
		return nil, err
	}
	md := arrow.NewMetadata(
		[]string{contract.MetaSchemaVersion, contract.MetaSummary, contract.MetaRunInfo},
		[]string{strconv.Itoa(contract.SchemaVersion), string(sum), string(inf)},
	)
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, int64(n)), nil
}

// loadedFromEntry makes a Loaded of an entry record read by readEntry
// over a buffer of its own (never reused): the columns are used where
// they lie. Info is the stored RunInfo (Cache.load decides whether it
// applies); the Summary's first problems are rebuilt by the caller once
// it names the run's file (restoreFirst).
func loadedFromEntry(rec arrow.RecordBatch) (*contract.Loaded, error) {
	md := rec.Schema().Metadata()
	if i := md.FindKey(contract.MetaSchemaVersion); i < 0 || md.Values()[i] != strconv.Itoa(contract.SchemaVersion) {
		return nil, fmt.Errorf("schema version missing or not %d", contract.SchemaVersion)
	}
	l := &contract.Loaded{}
	if i := md.FindKey(contract.MetaSummary); i >= 0 {
		if err := json.Unmarshal([]byte(md.Values()[i]), &l.Summary); err != nil {
			return nil, fmt.Errorf("decode summary metadata: %w", err)
		}
	}
	if i := md.FindKey(contract.MetaRunInfo); i >= 0 {
		if err := json.Unmarshal([]byte(md.Values()[i]), &l.Info); err != nil {
			return nil, fmt.Errorf("decode run info metadata: %w", err)
		}
	}
	n := int(rec.NumRows())
	e := entryColumns{rec: rec, n: n}
	s := &l.Samples
	l.Keys = castBytes[[16]byte](e.fixed(entryUUID, arrow.FIXED_SIZE_BINARY, 16, 1, true), n)
	for _, c := range entryInt64s() {
		*c.col(s) = castBytes[int64](e.fixed(c.name, arrow.INT64, 8, 8, !c.optional), n)
	}
	if s.LastIssueNs == nil {
		s.LastIssueNs = s.IssueNs
	}
	l.TextBytes = castBytes[int64](e.fixed(entryTextSize, arrow.INT64, 8, 8, true), n)
	for _, c := range entryBools() {
		b := e.fixed(c.name, arrow.UINT8, 1, 1, true)
		if i := slices.IndexFunc(b, func(v byte) bool { return v > 1 }); i >= 0 && e.err == nil {
			e.err = fmt.Errorf("column %s: %d at row %d is not a bool", c.name, b[i], i)
		}
		*c.col(s) = castBytes[bool](b, n)
	}
	kinds := e.fixed("failure_kind", arrow.UINT8, 1, 1, true)
	nKinds := byte(0) // the kinds are 0 … nKinds−1
	for nKinds < 255 {
		if k, ok := core.FailureKindByName(core.FailureKind(nKinds).String()); !ok || k != core.FailureKind(nKinds) {
			break
		}
		nKinds++
	}
	if i := slices.IndexFunc(kinds, func(k byte) bool { return k >= nKinds }); i >= 0 && e.err == nil {
		e.err = fmt.Errorf("column failure_kind: %d at row %d is no failure kind", kinds[i], i)
	}
	s.FailureKind = castBytes[core.FailureKind](kinds, n)
	for _, c := range entryInt32s() {
		*c.col(s) = castBytes[int32](e.fixed(c.name, arrow.INT32, 4, 4, !c.optional), n)
	}
	if a := e.strings("conversation_id"); a != nil {
		s.ConversationID = make([]string, n)
		for i := range n {
			s.ConversationID[i] = a.Value(i)
		}
	}
	if a := e.strings(entryUUIDExt); a != nil {
		l.Ext = make(map[int32]string)
		for i := range n {
			if a.IsValid(i) {
				l.Ext[int32(i)] = a.Value(i)
			}
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	return l, nil
}

// entryColumns finds an entry's columns by name, keeping the first
// problem.
type entryColumns struct {
	rec arrow.RecordBatch
	n   int
	err error
}

// fixed returns the n·width value bytes of the fixed-width column name
// (nil when it is absent and not required), at an address aligned to
// align.
func (e *entryColumns) fixed(name string, id arrow.Type, width, align int, required bool) []byte {
	idx := e.rec.Schema().FieldIndices(name)
	if len(idx) != 1 {
		if (required || len(idx) > 1) && e.err == nil {
			e.err = fmt.Errorf("column %s: %d in the entry, want 1", name, len(idx))
		}
		return nil
	}
	a := e.rec.Column(idx[0])
	d := a.Data()
	bufs := d.Buffers()
	switch {
	case e.err != nil:
		return nil
	case a.DataType().ID() != id || d.Len() != e.n || d.Offset() != 0 || a.NullN() != 0 || len(bufs) != 2:
		e.err = fmt.Errorf("column %s: %v of %d values (%d null), want %v of %d without nulls", name, a.DataType(), d.Len(), a.NullN(), id, e.n)
		return nil
	case e.n == 0:
		return []byte{}
	case bufs[1] == nil || bufs[1].Len() < width*e.n:
		e.err = fmt.Errorf("column %s: values buffer too short", name)
		return nil
	case uintptr(unsafe.Pointer(unsafe.SliceData(bufs[1].Bytes())))%uintptr(align) != 0:
		e.err = fmt.Errorf("column %s: values not aligned to %d bytes", name, align)
		return nil
	}
	return bufs[1].Bytes()[:width*e.n]
}

// strings returns the utf8 column name, nil when absent.
func (e *entryColumns) strings(name string) *array.String {
	idx := e.rec.Schema().FieldIndices(name)
	if len(idx) != 1 {
		return nil
	}
	a, ok := e.rec.Column(idx[0]).(*array.String)
	if !ok || a.Len() != e.n {
		if e.err == nil {
			e.err = fmt.Errorf("column %s: %v of %d values, want utf8 of %d", name, e.rec.Column(idx[0]).DataType(), e.rec.Column(idx[0]).Len(), e.n)
		}
		return nil
	}
	return a
}

// BytesOf views a slice of fixed-size values as its bytes.
func BytesOf[T any](v []T) []byte {
	if len(v) == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(v[0])))
}

// castBytes views b as n values of T (nil for nil b), its capacity n so an
// append cannot run into the next column. b's values must be valid Ts
// (the bool and kind columns are checked by the caller) and aligned
// (Arrow IPC aligns every buffer to 8 bytes).
func castBytes[T any](b []byte, n int) []T {
	if b == nil {
		return nil
	}
	if n == 0 {
		return []T{}
	}
	v := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	return v[:n:n]
}
