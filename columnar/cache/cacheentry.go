package cache

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
	"github.com/zeebo/xxh3"
)

// A cache entry (cache.go) is a file of this package's own layout, made to
// be used where it lies once read or mapped: core.Samples' own columns,
// with their sentinels, as raw little-endian values at 8-byte-aligned
// offsets, so the int64, int32, bool and failure-kind columns become the
// Samples' slices without a copy or a per-sample step. All integers are
// little-endian:
//
//	header (entryHeaderSize bytes)
//	  magic     [8]byte   entryMagic
//	  version   uint32    entryVersion (this layout)
//	  schema    uint32    contract.SchemaVersion
//	  rows      uint64    samples
//	  columns   uint32    records in the column table
//	  reserved  uint32    0
//	  summary   uint64 offset, uint64 length: contract.Summary (summarycodec.go)
//	  run info  uint64 offset, uint64 length: core.RunInfo as JSON
//	column table (columns × entryColumnSize bytes)
//	  name      [24]byte  NUL-padded
//	  type      uint32    entryInt64, entryInt32, entryUint8, entryFixed16 or entryUTF8
//	  reserved  uint32    0
//	  values    uint64 offset, uint64 length: rows × width bytes (utf8: rows+1 uint64 offsets into data)
//	  validity  uint64    offset of rows bytes, 1 valid / 0 null (0: no nulls)
//	  data      uint64 offset, uint64 length: a utf8 column's bytes (else 0, 0)
//	sections    each at an 8-byte-aligned offset, zero padding between
//	sum         uint64    XXH3-64 of every byte before it (entrySum)
//
// The columns:
//
//   - uuid16 holds the packed uuids (16 bytes each); uuid_ext, only when
//     some uuid is not 32 lowercase hex digits, those uuids (null for
//     the others);
//   - a column core.Samples leaves empty (the optional ones) is left
//     out, and last_issue_ns when it equals issue_ns (no sample was
//     re-issued): the Samples then share one slice.
//
// For the 183 MB bench run that is 113 bytes a sample where the export
// Table takes 185, and no per-sample work on load.
const (
	entryMagic      = "SSWCOLS\n"
	entryVersion    = 2 // 2: the trailer an XXH3-64, not a CRC-32C; the summary's own form, not JSON
	entryHeaderSize = 64
	entryColumnSize = 72
	entryNameSize   = 24
)

// mapMinSize is the smallest entry mapped where the platform maps
// (entrymap_mmap.go): a smaller one is read (one page or a few, where a
// mapping costs a syscall, a VMA and its faults for no copy saved).
const mapMinSize = 256 << 10

// The column types of an entry.
const (
	entryInt64   = 1 // int64 values
	entryInt32   = 2 // int32 values
	entryUint8   = 3 // bools (0/1) and failure kinds
	entryFixed16 = 4 // packed uuids
	entryUTF8    = 5 // strings: offsets and data
)

// entryWidths is the value width of each column type (utf8: its offsets').
var entryWidths = [...]int{entryInt64: 8, entryInt32: 4, entryUint8: 1, entryFixed16: 16, entryUTF8: 8}

// Names of the columns the entry treats apart.
const (
	entryUUID     = "uuid16"
	entryUUIDExt  = "uuid_ext"
	entryTextSize = "output_text_bytes"
	entryLastIss  = "last_issue_ns"
	entryKind     = "failure_kind"
	entryConv     = "conversation_id"
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

// entrySection is one column of an entry being written: its type and
// sections (values always; validity and data when it has them).
type entrySection struct {
	name                string
	typ                 uint32
	values, valid, data []byte
}

// EntryPlan is the layout of one entry to write: its columns (views of a
// Loaded's slices, no copy on a little-endian host) and metadata.
type EntryPlan struct {
	rows      int
	cols      []entrySection
	sum, info []byte
}

// Columns lists the names of the plan's columns, in entry order.
func (p *EntryPlan) Columns() []string {
	out := make([]string, len(p.cols))
	for i, c := range p.cols {
		out[i] = c.name
	}
	return out
}

// PlanEntry lays out the entry of l. Its columns are views of l's (no
// copy): write it before l changes.
func PlanEntry(l *contract.Loaded) (*EntryPlan, error) {
	s := &l.Samples
	n := s.Len()
	if len(l.Keys) != n {
		return nil, fmt.Errorf("entry: %d keys for %d samples", len(l.Keys), n)
	}
	sum := appendSummary(nil, &l.Summary)
	inf, err := json.Marshal(&l.Info)
	if err != nil {
		return nil, fmt.Errorf("encode run info: %w", err)
	}
	p := &EntryPlan{rows: n, sum: sum, info: inf}
	add := func(name string, typ uint32, b []byte) {
		if err == nil && len(b) != entryWidths[typ]*n {
			err = fmt.Errorf("entry: column %s has %d bytes for %d samples", name, len(b), n)
		}
		p.cols = append(p.cols, entrySection{name: name, typ: typ, values: b})
	}
	add(entryUUID, entryFixed16, BytesOf(l.Keys))
	for _, c := range entryInt64s() {
		v := *c.col(s)
		if (c.optional && len(v) == 0) || (c.name == entryLastIss && slices.Equal(v, s.IssueNs)) {
			continue
		}
		add(c.name, entryInt64, littleEndianBytes(v))
	}
	add(entryTextSize, entryInt64, littleEndianBytes(l.TextBytes))
	for _, c := range entryBools() {
		add(c.name, entryUint8, BytesOf(*c.col(s)))
	}
	add(entryKind, entryUint8, BytesOf(s.FailureKind))
	for _, c := range entryInt32s() {
		if v := *c.col(s); !c.optional || len(v) > 0 {
			add(c.name, entryInt32, littleEndianBytes(v))
		}
	}
	if err != nil {
		return nil, err
	}
	if len(s.ConversationID) > 0 {
		if len(s.ConversationID) != n {
			return nil, fmt.Errorf("entry: %d conversation ids for %d samples", len(s.ConversationID), n)
		}
		p.cols = append(p.cols, utf8Section(entryConv, n, func(i int) (string, bool) { return s.ConversationID[i], true }))
	}
	if len(l.Ext) > 0 {
		c := utf8Section(entryUUIDExt, n, func(i int) (string, bool) { u, ok := l.Ext[int32(i)]; return u, ok })
		p.cols = append(p.cols, c)
	}
	return p, nil
}

// utf8Section is the utf8 column name of n values (a validity section
// when some value is absent).
func utf8Section(name string, n int, value func(i int) (string, bool)) entrySection {
	offs := make([]byte, 0, 8*(n+1))
	offs = binary.LittleEndian.AppendUint64(offs, 0)
	var data, valid []byte
	nulls := false
	for i := range n {
		v, ok := value(i)
		data = append(data, v...)
		offs = binary.LittleEndian.AppendUint64(offs, uint64(len(data)))
		valid = append(valid, b2u(ok))
		nulls = nulls || !ok
	}
	if !nulls {
		valid = nil
	}
	return entrySection{name: name, typ: entryUTF8, values: offs, valid: valid, data: data}
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// align8 rounds o up to a multiple of 8.
func align8(o uint64) uint64 { return (o + 7) &^ 7 }

// entrySumSize is the size of an entry's trailer: the XXH3-64 of every
// byte before it.
//
// XXH3-64, not a CRC-32C as before: the check reads every byte of a 6 MB
// entry on every warm analyze, and XXH3 runs at memory speed (~0.1 ms for
// the 5.9 MB entry of the 185 MB streamed log, with AVX2 or AVX-512) where
// the CRC-32C took ~0.7 ms on one core (then two halves on two goroutines,
// joined by a CRC combine) plus ~0.2–0.8 ms for hash/crc32's tables, built
// on first use in every process; XXH3 needs none (issue 32). A torn or
// flipped entry fails it with odds of 2⁻⁶⁴ of passing, and the layout
// checks (loadedFromEntry) stand behind it.
const entrySumSize = 8

// entrySum is the checksum of an entry's body (the bytes before its trailer).
func entrySum(body []byte) uint64 { return xxh3.Hash(body) }

// Write writes the entry to w, returning its checksum: the XXH3-64 of
// the bytes before the trailer, which the trailer holds and the entry's
// name carries (a sum over a whole file ending in its own sum would name
// nothing).
func (p *EntryPlan) Write(w io.Writer) (uint64, error) {
	// Lay the sections out after the header and column table.
	type placed struct{ off, n uint64 }
	end := uint64(entryHeaderSize + entryColumnSize*len(p.cols))
	place := func(b []byte, always bool) placed {
		if b == nil && !always {
			return placed{}
		}
		off := align8(end)
		end = off + uint64(len(b))
		return placed{off, uint64(len(b))}
	}
	var order [][]byte // the sections, in file order
	hdr := make([]byte, entryHeaderSize, entryHeaderSize+entryColumnSize*len(p.cols))
	copy(hdr, entryMagic)
	le := binary.LittleEndian
	le.PutUint32(hdr[8:], entryVersion)
	le.PutUint32(hdr[12:], contract.SchemaVersion)
	le.PutUint64(hdr[16:], uint64(p.rows))
	le.PutUint32(hdr[24:], uint32(len(p.cols)))
	for _, c := range p.cols {
		if len(c.name) > entryNameSize {
			return 0, fmt.Errorf("entry: column name %q too long", c.name)
		}
		var rec [entryColumnSize]byte
		copy(rec[:entryNameSize], c.name)
		le.PutUint32(rec[24:], c.typ)
		v := place(c.values, true)
		le.PutUint64(rec[32:], v.off)
		le.PutUint64(rec[40:], v.n)
		order = append(order, c.values)
		if c.valid != nil {
			le.PutUint64(rec[48:], place(c.valid, false).off)
			order = append(order, c.valid)
		}
		if c.typ == entryUTF8 {
			d := place(c.data, true)
			le.PutUint64(rec[56:], d.off)
			le.PutUint64(rec[64:], d.n)
			order = append(order, c.data)
		}
		hdr = append(hdr, rec[:]...)
	}
	for i, b := range [][]byte{p.sum, p.info} {
		m := place(b, true)
		le.PutUint64(hdr[32+16*i:], m.off)
		le.PutUint64(hdr[40+16*i:], m.n)
		order = append(order, b)
	}
	// The columns are written from where they lie, each hashed on the
	// way: through a buffer the size of the entry (256 KiB then) each
	// byte was copied once more, into 64 fresh pages; the header, the
	// padding and the small sections are gathered into one write.
	ew := entryWriter{w: w, sum: xxh3.New(), buf: make([]byte, 0, entryDirectWrite)}
	at := uint64(len(hdr))
	ew.put(hdr)
	var zero [8]byte
	for _, b := range order {
		ew.put(zero[:align8(at)-at])
		ew.put(b)
		at = align8(at) + uint64(len(b))
	}
	// The trailer is the checksum of everything before it, so it is
	// gathered with the last sections but not hashed.
	sum := ew.sum.Sum64()
	ew.buf = le.AppendUint64(ew.buf, sum)
	if err := ew.flush(); err != nil {
		return 0, err
	}
	return sum, nil
}

// entryDirectWrite is the size from which a section is written by itself
// from its own bytes (entryWriter); smaller ones are gathered.
const entryDirectWrite = 32 << 10

// entryWriter writes an entry's sections to w and keeps the entry's
// checksum (entrySum, streamed) of what it was given; the first error
// ends the writes and is flush's.
type entryWriter struct {
	w   io.Writer
	sum *xxh3.Hasher
	buf []byte
	err error
}

func (e *entryWriter) put(b []byte) {
	e.sum.Write(b)
	if len(b) >= entryDirectWrite {
		e.flush()
		if e.err == nil {
			_, e.err = e.w.Write(b)
		}
		return
	}
	if len(e.buf)+len(b) > cap(e.buf) {
		e.flush()
	}
	e.buf = append(e.buf, b...)
}

func (e *entryWriter) flush() error {
	if len(e.buf) > 0 && e.err == nil {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
	return e.err
}

// checkEntry checks b's trailing checksum (entrySum) and returns it (the
// entry's name).
func checkEntry(b []byte) (uint64, error) {
	if len(b) < entryHeaderSize+entrySumSize {
		return 0, fmt.Errorf("%d bytes, shorter than an entry's header", len(b))
	}
	body, tail := b[:len(b)-entrySumSize], b[len(b)-entrySumSize:]
	sum := entrySum(body)
	if sum != binary.LittleEndian.Uint64(tail) {
		return 0, errors.New("checksum mismatch")
	}
	return sum, nil
}

// loadedFromEntry makes a Loaded of the entry b (its checksum checked by
// checkEntry), whose bytes are never reused or unmapped: the columns are
// used where they lie when aligned and the host is little-endian, copied
// otherwise. Every offset and length is checked against b: a lying
// entry is an error, never a read outside it. Info is the stored RunInfo
// (Cache.load decides whether it applies); the Summary's first problems
// are rebuilt by the caller once it names the run's file (restoreFirst).
// With skipInfo the RunInfo is left zero, undecoded: an endpoints run's
// comes from its sidecars (Cache.loadEntry), and decoding it cost the
// first use of encoding/json on its type (~0.3 ms of a warm analyze).
func loadedFromEntry(b []byte, skipInfo bool) (*contract.Loaded, error) {
	if len(b) < entryHeaderSize+entrySumSize || string(b[:8]) != entryMagic {
		return nil, errors.New("not a cache entry (magic)")
	}
	le := binary.LittleEndian
	body := b[:len(b)-entrySumSize]
	if v := le.Uint32(b[8:]); v != entryVersion {
		return nil, fmt.Errorf("entry layout version %d, want %d", v, entryVersion)
	}
	if v := le.Uint32(b[12:]); v != contract.SchemaVersion {
		return nil, fmt.Errorf("schema version %d, want %d", v, contract.SchemaVersion)
	}
	rows64, ncols := le.Uint64(b[16:]), uint64(le.Uint32(b[24:]))
	// Every entry holds 16 bytes a row (uuid16), so a row count above the
	// file's size lies; bounding it first keeps rows × width from
	// overflowing.
	if rows64 > uint64(len(body)) {
		return nil, fmt.Errorf("%d rows in a %d-byte entry", rows64, len(b))
	}
	if ncols > (uint64(len(body))-entryHeaderSize)/entryColumnSize {
		return nil, fmt.Errorf("%d columns in a %d-byte entry", ncols, len(b))
	}
	n := int(rows64)
	tableEnd := entryHeaderSize + entryColumnSize*ncols
	// section returns body[off:off+length] when it lies after the column
	// table and inside the body, aligned to 8 when aligned says.
	type span struct{ off, end uint64 }
	var spans []span // every section, to check they tile the body
	section := func(what string, off, length uint64, aligned bool) ([]byte, error) {
		if off < tableEnd || off > uint64(len(body)) || length > uint64(len(body))-off || (aligned && off%8 != 0) {
			return nil, fmt.Errorf("%s: %d bytes at %d outside the entry's %d or misaligned", what, length, off, len(body))
		}
		spans = append(spans, span{off, off + length})
		return body[off : off+length : off+length], nil
	}
	l := &contract.Loaded{}
	sum, err := section("summary", le.Uint64(b[32:]), le.Uint64(b[40:]), false)
	if err != nil {
		return nil, err
	}
	if err := decodeSummary(sum, &l.Summary); err != nil {
		return nil, err
	}
	info, err := section("run info", le.Uint64(b[48:]), le.Uint64(b[56:]), false)
	if err != nil {
		return nil, err
	}
	if !skipInfo {
		if err := json.Unmarshal(info, &l.Info); err != nil {
			return nil, fmt.Errorf("decode run info: %w", err)
		}
	}
	// The column table, by name.
	type column struct {
		typ           uint32
		values, valid []byte
		data          []byte
	}
	cols := make(map[string]column, ncols)
	for i := range ncols {
		rec := b[entryHeaderSize+entryColumnSize*i:][:entryColumnSize]
		name := string(rec[:entryNameSize])
		if k := strings.IndexByte(name, 0); k >= 0 {
			name = name[:k]
		}
		typ := le.Uint32(rec[24:])
		if typ < entryInt64 || typ > entryUTF8 {
			return nil, fmt.Errorf("column %s: type %d", name, typ)
		}
		if _, dup := cols[name]; dup {
			return nil, fmt.Errorf("column %s: twice in the entry", name)
		}
		width := uint64(entryWidths[typ])
		want := width * rows64
		if typ == entryUTF8 {
			want += 8
		}
		var c column
		c.typ = typ
		var err error
		if le.Uint64(rec[40:]) != want {
			return nil, fmt.Errorf("column %s: %d bytes, want %d for %d rows", name, le.Uint64(rec[40:]), want, n)
		}
		if c.values, err = section("column "+name, le.Uint64(rec[32:]), want, true); err != nil {
			return nil, err
		}
		if off := le.Uint64(rec[48:]); off != 0 {
			if c.valid, err = section("column "+name+" validity", off, rows64, false); err != nil {
				return nil, err
			}
			if k := slices.IndexFunc(c.valid, func(v byte) bool { return v > 1 }); k >= 0 {
				return nil, fmt.Errorf("column %s: validity %d at row %d", name, c.valid[k], k)
			}
		}
		if typ == entryUTF8 {
			if c.data, err = section("column "+name+" data", le.Uint64(rec[56:]), le.Uint64(rec[64:]), false); err != nil {
				return nil, err
			}
		} else if c.valid != nil {
			return nil, fmt.Errorf("column %s: nulls in a fixed-width column", name)
		}
		cols[name] = c
	}
	// The sections tile the body as Write lays them out: each at the
	// 8-byte boundary after the one before, the last ending the body. A
	// column left out of the table, or two records naming one section,
	// leaves a gap or an overlap.
	slices.SortFunc(spans, func(a, b span) int { return cmp.Or(cmp.Compare(a.off, b.off), cmp.Compare(a.end, b.end)) })
	at := uint64(tableEnd)
	for _, sp := range spans {
		if sp.off != align8(at) {
			return nil, fmt.Errorf("sections do not tile the entry: one at %d, want %d", sp.off, align8(at))
		}
		at = sp.end
	}
	if at != uint64(len(body)) {
		return nil, fmt.Errorf("sections end at %d, the entry's body at %d", at, len(body))
	}
	var firstErr error
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	// fixed returns the values of the fixed-width column name, of type
	// typ (nil when absent and not required).
	fixed := func(name string, typ uint32, required bool) []byte {
		c, ok := cols[name]
		delete(cols, name)
		switch {
		case !ok && required:
			fail(fmt.Errorf("column %s: missing from the entry", name))
		case ok && c.typ != typ:
			fail(fmt.Errorf("column %s: type %d, want %d", name, c.typ, typ))
		case ok:
			return c.values
		}
		return nil
	}
	s := &l.Samples
	l.Keys = castBytes[[16]byte](fixed(entryUUID, entryFixed16, true), n)
	for _, c := range entryInt64s() {
		*c.col(s) = fromLittleEndian[int64](fixed(c.name, entryInt64, !c.optional), n)
	}
	if s.LastIssueNs == nil {
		s.LastIssueNs = s.IssueNs
	}
	l.TextBytes = fromLittleEndian[int64](fixed(entryTextSize, entryInt64, true), n)
	for _, c := range entryBools() {
		v := fixed(c.name, entryUint8, true)
		if i := slices.IndexFunc(v, func(v byte) bool { return v > 1 }); i >= 0 {
			fail(fmt.Errorf("column %s: %d at row %d is not a bool", c.name, v[i], i))
			v = nil
		}
		*c.col(s) = castBytes[bool](v, n)
	}
	kinds := fixed(entryKind, entryUint8, true)
	nKinds := byte(0) // the kinds are 0 … nKinds−1
	for nKinds < 255 {
		if k, ok := core.FailureKindByName(core.FailureKind(nKinds).String()); !ok || k != core.FailureKind(nKinds) {
			break
		}
		nKinds++
	}
	if i := slices.IndexFunc(kinds, func(k byte) bool { return k >= nKinds }); i >= 0 {
		fail(fmt.Errorf("column %s: %d at row %d is no failure kind", entryKind, kinds[i], i))
		kinds = nil
	}
	s.FailureKind = castBytes[core.FailureKind](kinds, n)
	for _, c := range entryInt32s() {
		*c.col(s) = fromLittleEndian[int32](fixed(c.name, entryInt32, !c.optional), n)
	}
	// utf8 returns the strings of the utf8 column name (nil when absent),
	// and which are valid (nil: all).
	utf8 := func(name string) ([]string, []byte) {
		c, ok := cols[name]
		delete(cols, name)
		if !ok {
			return nil, nil
		}
		if c.typ != entryUTF8 {
			fail(fmt.Errorf("column %s: type %d, want utf8", name, c.typ))
			return nil, nil
		}
		all := string(c.data) // one copy, the values substrings of it
		out := make([]string, n)
		prev := le.Uint64(c.values)
		if prev != 0 {
			fail(fmt.Errorf("column %s: first offset %d", name, prev))
			return nil, nil
		}
		for i := range n {
			next := le.Uint64(c.values[8*(i+1):])
			if next < prev || next > uint64(len(all)) {
				fail(fmt.Errorf("column %s: offset %d of row %d outside %d..%d", name, next, i, prev, len(all)))
				return nil, nil
			}
			out[i], prev = all[prev:next], next
		}
		return out, c.valid
	}
	if v, _ := utf8(entryConv); v != nil {
		s.ConversationID = v
	}
	if v, valid := utf8(entryUUIDExt); v != nil {
		l.Ext = make(map[int32]string)
		for i, u := range v {
			if valid == nil || valid[i] == 1 {
				l.Ext[int32(i)] = u
			}
		}
	}
	for name := range cols {
		fail(fmt.Errorf("column %s: not a column of an entry", name))
		break
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return l, nil
}

// hostLittleEndian says whether this host stores integers
// little-endian, as entries do: then their columns are used in place. A
// function (inlined, a load from the stack), not a variable computed at
// package init, which every process would run (issue 32).
func hostLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// littleEndianBytes is v as an entry stores it: its own bytes on a
// little-endian host, a little-endian copy on another.
func littleEndianBytes[T int64 | int32](v []T) []byte {
	if hostLittleEndian() {
		return BytesOf(v)
	}
	out := make([]byte, 0, len(v)*int(unsafe.Sizeof(T(0))))
	for _, x := range v {
		if unsafe.Sizeof(x) == 8 {
			out = binary.LittleEndian.AppendUint64(out, uint64(x))
		} else {
			out = binary.LittleEndian.AppendUint32(out, uint32(x))
		}
	}
	return out
}

// fromLittleEndian views the little-endian values b as n Ts in place
// (nil for nil b) when the host is little-endian and b aligned, and
// decodes a copy otherwise.
func fromLittleEndian[T int64 | int32](b []byte, n int) []T {
	size := int(unsafe.Sizeof(T(0)))
	if b == nil || (hostLittleEndian() && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(size) == 0) {
		return castBytes[T](b, n)
	}
	out := make([]T, n)
	for i := range out {
		if size == 8 {
			out[i] = T(binary.LittleEndian.Uint64(b[8*i:]))
		} else {
			out[i] = T(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return out
}

// BytesOf views a slice of fixed-size values as its bytes.
func BytesOf[T any](v []T) []byte {
	if len(v) == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(v[0])))
}

// castBytes views b as n values of T (nil for nil b), its capacity n so an
// append cannot run into the next column. b must hold n Ts: valid values
// (the bool and kind columns are checked by the caller), aligned (entry
// sections are 8-byte aligned, and so is a mapping or a heap buffer) —
// the one-byte and [16]byte types need no alignment.
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
