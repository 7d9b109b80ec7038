package parquetio

import (
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
)

// TestStoredSchemaIsArrowGos: the ARROW:schema value is byte for byte
// what arrow-go's IPC stream writer makes of the same schema (what
// pqarrow's WithStoreSchema stored, and so what our files held when
// arrow-go wrote them), for schemas with and without metadata, and
// arrow/ipc reads our value back as the schema.
func TestStoredSchemaIsArrowGos(t *testing.T) {
	for name, sc := range map[string]*arrow.Schema{
		"test":  testSchema(),
		"bare":  arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil),
		"empty": arrow.NewSchema(nil, nil),
	} {
		var buf bytes.Buffer
		w := ipc.NewWriter(&buf, ipc.WithSchema(sc))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		want := base64.StdEncoding.EncodeToString(buf.Bytes())
		got := encodeSchema(arrowbatch.Schema(sc))
		if got != want {
			t.Errorf("%s: ARROW:schema\n%s\nwant (arrow/ipc)\n%s", name, got, want)
		}
		raw, _ := base64.StdEncoding.DecodeString(got)
		r, err := ipc.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: arrow/ipc reads ours: %v", name, err)
		}
		if !r.Schema().Equal(sc) || !r.Schema().Metadata().Equal(sc.Metadata()) {
			t.Errorf("%s: arrow/ipc reads\n%s\nwant\n%s", name, r.Schema(), sc)
		}
		r.Release()
		st, err := decodeSchema(got)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.fieldMeta) != sc.NumFields() || st.meta.Len() != sc.Metadata().Len() {
			t.Errorf("%s: decoded %d fields, %d metadata pairs", name, len(st.fieldMeta), st.meta.Len())
		}
		for i, f := range sc.Fields() {
			if len(st.fieldMeta) > i && st.fieldMeta[i].Len() != f.Metadata.Len() {
				t.Errorf("%s: field %s: %d metadata pairs, want %d", name, f.Name, st.fieldMeta[i].Len(), f.Metadata.Len())
			}
		}
	}
}
