package parquetio

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/batch"
)

// The malformed-input tests take a valid file of ours and break one
// thing a hostile or damaged file can break: the error is one line and
// names the file and, where it has them, the row group, the column and
// the field (issue 30's rule), and nothing is allocated from a length
// before it is checked (the lengths here would ask for gigabytes).

// smallFile is a valid file: 40 rows of testRecord, one row group, PLAIN
// and uncompressed (so page bytes can be edited in place), or as opts say.
func smallFile(t testing.TB, opts Options) []byte {
	t.Helper()
	rec := testRecord(t, 40, 2, 4)
	defer rec.Release()
	return writeOurs(t, &opts, false, rec)
}

// footerOf splits a file into its data (up to the footer) and footer.
func footerOf(t testing.TB, b []byte) (data []byte, meta *fileMeta) {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	m, err := decodeFileMeta(b[len(b)-8-n : len(b)-8])
	if err != nil {
		t.Fatal(err)
	}
	return b[:len(b)-8-n], m
}

// withFooter is data followed by footer bytes and the trailer.
func withFooter(data, footer []byte) []byte {
	out := append(bytes.Clone(data), footer...)
	return append(out, footerTrailer(len(footer))...)
}

// editMeta re-encodes a file's footer after edit changed it.
func editMeta(t testing.TB, b []byte, edit func(m *fileMeta)) []byte {
	data, m := footerOf(t, b)
	edit(m)
	return withFooter(data, encodeFileMeta(nil, m))
}

// fieldAt is the offset in b of the value of field id of the struct at
// b[0] (for a page header's sizes: varints edited in place).
func fieldAt(t testing.TB, b []byte, id int16) int {
	t.Helper()
	d := &thriftDecoder{b: b}
	at := -1
	err := d.structFields(func(got int16, typ byte) (bool, error) {
		if got == id && at < 0 {
			at = d.pos
		}
		return false, nil
	})
	if err != nil || at < 0 {
		t.Fatalf("no field %d: %v", id, err)
	}
	return at
}

// putVarint overwrites the zigzag varint at b[at:] with v, which must
// take as many bytes (the header keeps its length).
func putVarint(t testing.TB, b []byte, at int, v int64) {
	t.Helper()
	_, n := binary.Uvarint(b[at:])
	enc := binary.AppendUvarint(nil, uint64(v<<1)^uint64(v>>63))
	for len(enc) < n { // pad with continuation bytes: the same value
		enc[len(enc)-1] |= 0x80
		enc = append(enc, 0)
	}
	if len(enc) != n {
		t.Fatalf("varint %d takes %d bytes, the field %d", v, len(enc), n)
	}
	copy(b[at:], enc)
}

// firstPage is the offset of column c's first page in row group 0.
func firstPage(t testing.TB, b []byte, c int) int {
	_, m := footerOf(t, b)
	return int(chunkStart(m.rowGroups[0].columns[c].meta))
}

// firstPageData is where the data of column c's first page starts in b,
// past the page's header.
func firstPageData(t testing.TB, b []byte, c int) int {
	p := firstPage(t, b, c)
	_, hl, err := decodePageHeader(b[p:])
	if err != nil {
		t.Fatal(err)
	}
	return p + hl
}

func TestMalformedInputs(t *testing.T) {
	plain := smallFile(t, Options{})
	snappy := smallFile(t, Options{Compression: Snappy})
	col := func(name string) int { return testSchema().FieldIndices(name)[0] }
	tests := []struct {
		name  string
		file  func() []byte
		wants []string // in the error, besides the file's name
	}{
		{"too short", func() []byte { return []byte("PAR1PAR1") }, []string{"not a Parquet file: 8 bytes"}},
		{"truncated footer", func() []byte { return plain[:len(plain)-30] }, []string{"not a Parquet file"}},
		{"footer length beyond the file", func() []byte {
			b := bytes.Clone(plain)
			binary.LittleEndian.PutUint32(b[len(b)-8:], 1<<31)
			return b
		}, []string{"footer length 2147483648"}},
		{"encrypted footer", func() []byte {
			b := bytes.Clone(plain)
			copy(b[len(b)-4:], "PARE")
			return b
		}, []string{"encrypted"}},
		{"bad thrift", func() []byte {
			data, _ := footerOf(t, plain)
			return withFooter(data, bytes.Repeat([]byte{0xff}, 40))
		}, []string{"footer:"}},
		{"huge schema list", func() []byte {
			e := &thriftEncoder{}
			e.begin()
			e.i32(1, 2)
			e.list(2, tStruct, 1<<30)
			data, _ := footerOf(t, plain)
			return withFooter(data, append(e.b, make([]byte, 16)...))
		}, []string{"footer: schema: list of 1073741824 elements"}},
		{"huge string length", func() []byte {
			e := &thriftEncoder{}
			e.begin()
			e.list(5, tStruct, 1)
			e.field(1, tBinary)
			e.uvarint(1 << 40)
			data, _ := footerOf(t, plain)
			return withFooter(data, append(e.b, "key"...))
		}, []string{"key_value_metadata[0].key: length 1099511627776 beyond"}},
		{"wrong field type", func() []byte {
			e := &thriftEncoder{}
			e.begin()
			e.str(1, "two")
			e.end()
			data, _ := footerOf(t, plain)
			return withFooter(data, e.b)
		}, []string{"footer: version: thrift type 8, want 5"}},
		{"nesting without end", func() []byte {
			data, _ := footerOf(t, plain)
			return withFooter(data, bytes.Repeat([]byte{0xfc}, 200)) // unknown field 15, a struct, forever
		}, []string{"nested deeper than 32"}},
		{"chunk beyond the file", func() []byte {
			return editMeta(t, plain, func(m *fileMeta) { m.rowGroups[0].columns[3].meta.compressedSize = 1 << 40 })
		}, []string{"row group 0, column 3: meta_data.total_compressed_size: 1099511627776 bytes"}},
		{"chunk offset outside", func() []byte {
			return editMeta(t, plain, func(m *fileMeta) { m.rowGroups[0].columns[1].meta.dataPageOffset = -5 })
		}, []string{"row group 0, column 1: meta_data.data_page_offset: -5"}},
		{"chunk of another type", func() []byte {
			return editMeta(t, plain, func(m *fileMeta) { m.rowGroups[0].columns[2].meta.typ = typeDouble })
		}, []string{`row group 0, column "n": meta_data.type: DOUBLE, the schema says INT64`}},
		{"more rows than the pages hold", func() []byte {
			return editMeta(t, plain, func(m *fileMeta) { m.rowGroups[0].numRows = 41 })
		}, []string{`row group 0, column "run_id"`, "column chunk ended after 40 of 41 rows"}},
		{"page bigger than its chunk", func() []byte {
			b := bytes.Clone(plain)
			p := firstPage(t, b, col("n_req"))
			putVarint(t, b, p+fieldAt(t, b[p:], 3), 8000)
			return b
		}, []string{`row group 0, column "n_req"`, "compressed_page_size 8000"}},
		{"negative page size", func() []byte {
			b := bytes.Clone(plain)
			p := firstPage(t, b, col("n_req"))
			putVarint(t, b, p+fieldAt(t, b[p:], 2), -300)
			return b
		}, []string{`column "n_req"`, "uncompressed_page_size: -300 is negative"}},
		{"uncompressed size a lie", func() []byte {
			b := bytes.Clone(snappy) // 320 bytes of doubles: snappy cannot make 8191 of them
			p := firstPage(t, b, col("cov"))
			putVarint(t, b, p+fieldAt(t, b[p:], 2), 8191)
			return b
		}, []string{`column "cov"`, "uncompressed size 8191 for"}},
		{"dictionary count a lie", func() []byte {
			b := bytes.Clone(smallFile(t, Options{DictionaryAll: true}))
			p := firstPage(t, b, col("n_req"))
			dh := p + fieldAt(t, b[p:], 7)                // dictionary_page_header
			putVarint(t, b, dh+fieldAt(t, b[dh:], 1), 63) // 40 int64s there: 320 bytes
			return b
		}, []string{`column "n_req"`, "dictionary_page_header.num_values: 63 values in 320 bytes"}},
		{"string longer than its page", func() []byte {
			b := bytes.Clone(plain)
			binary.LittleEndian.PutUint32(b[firstPageData(t, b, col("run_id")):], 1<<31-1) // run_id is required: no levels first
			return b
		}, []string{`column "run_id"`, "PLAIN byte array 0: length 2147483647 beyond"}},
		{"definition levels longer than the page", func() []byte {
			b := bytes.Clone(plain)
			binary.LittleEndian.PutUint32(b[firstPageData(t, b, col("status")):], 1<<30)
			return b
		}, []string{`column "status"`, "definition levels: 1073741824 bytes in a page of"}},
		{"page header garbage", func() []byte {
			b := bytes.Clone(plain)
			p := firstPage(t, b, col("turn"))
			b[p] = 0x1b // field 1 as a map
			return b
		}, []string{`column "turn"`, "page header at chunk byte 0: type: thrift type 11, want 5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := readAllOf(tc.file())
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error of more than one line: %q", msg)
			}
			for _, want := range append([]string{"hostile.parquet: "}, tc.wants...) {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not say %q", msg, want)
				}
			}
		})
	}
}

// readAllOf opens b and reads every column, in small batches.
func readAllOf(b []byte) error {
	r, err := NewReader(bytes.NewReader(b), "hostile.parquet")
	if err != nil {
		return err
	}
	defer r.Close()
	return r.Each(context.Background(), nil, 7, func(*batch.Batch) error { return nil })
}

// FuzzReader: no input makes the reader panic or hang; the seeds are
// valid files of every writer setting, whose bytes the fuzzer mutates.
//
//	go test -run '^$' -fuzz FuzzReader -fuzztime 10m ./columnar/parquetio/
func FuzzReader(f *testing.F) {
	for _, o := range []Options{{}, {Compression: Zstd, DictionaryAll: true}, {Compression: Snappy, DataPageV2: true},
		{DataPageV2: true, DictionaryAll: true, PageRows: 8}} {
		f.Add(smallFile(f, o))
	}
	f.Add([]byte("PAR1\x15\x00PAR1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := NewReader(bytes.NewReader(b), "hostile.parquet")
		if err == nil {
			// A file may declare billions of rows in a few bytes (an
			// all-null page is a run header): reading them is the work
			// it asks for, in bounded batches, not a fault to find.
			var rows int64
			for _, g := range r.meta.rowGroups {
				rows += g.numRows
			}
			if rows > 1<<16 {
				return
			}
			err = r.Each(context.Background(), nil, 7, func(*batch.Batch) error { return nil })
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("error of more than one line: %q", err)
		}
	})
}

// TestHostileStoredSchema: an ARROW:schema whose fields vector claims
// 2^31−1 entries (arrow/ipc would allocate them: the fuzzer's first
// find) is refused by readStoredSchema and ignored, as a stored schema
// that does not fit is; the file reads, without the stored metadata.
func TestHostileStoredSchema(t *testing.T) {
	b := smallFile(t, Options{})
	b = editMeta(t, b, func(m *fileMeta) {
		for i, kv := range m.kv {
			if kv.key != arrowSchemaKey {
				continue
			}
			raw, err := base64.StdEncoding.DecodeString(kv.value)
			if err != nil {
				t.Fatal(err)
			}
			fb := flatbuf(raw[8:]) // after the continuation marker and length
			root, _ := fb.ref(0)
			schema, _, _ := fb.table(root, 2)
			fields, _, err := fb.table(schema, 1)
			if err != nil {
				t.Fatal(err)
			}
			binary.LittleEndian.PutUint32(fb[fields:], 1<<31-1)
			if _, err := readStoredSchema(raw); err == nil || !strings.Contains(err.Error(), "vector of 2147483647 elements") {
				t.Errorf("readStoredSchema: %v", err)
			}
			m.kv[i].value = base64.StdEncoding.EncodeToString(raw)
		}
	})
	r := openBytes(t, b, "hostile.parquet")
	if md := r.Schema().Metadata(); md.Len() != 0 {
		t.Errorf("metadata %v from a refused stored schema", md)
	}
	if err := readAllOf(b); err != nil {
		t.Error(err)
	}
}
