package samplesparquet

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// TestWrite: the Parquet file reads back with every row of both tables,
// keyed by run_id and run_rel, with the columns' values.
func TestWrite(t *testing.T) {
	run, err := columnar.ResolveRun(context.Background(), filepath.Join("..", "..", "testdata", "goodrun"))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := columnar.Ingest(context.Background(), run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, []NamedTable{{"id-a", "a", tab}, {"id-b", "x/b", tab}}); err != nil {
		t.Fatal(err)
	}
	r, err := parquetio.NewReader(bytes.NewReader(buf.Bytes()), "samples.parquet")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	n := tab.Rows
	if int(r.NumRows()) != 2*n || r.NumRowGroups() != 2 || r.Schema().NumFields() != len(columnar.Schema)+2 {
		t.Fatalf("read back %d rows in %d row groups, %d cols", r.NumRows(), r.NumRowGroups(), r.Schema().NumFields())
	}
	if f := r.Schema().Fields(); f[0].Name != "run_id" || f[1].Name != "run_rel" || !r.Schema().Equal(Schema()) {
		t.Fatalf("schema %s, want %s", r.Schema(), Schema())
	}
	s := tab.Samples()
	row := 0
	err = r.Each(context.Background(), nil, 0, func(rec *batch.Batch) error {
		names, idc := rec.Column(1), rec.Column(0)
		is := rec.Column(2 + columnar.ColIssueNs)
		tk := rec.Column(2 + columnar.ColOutputTokens)
		for i := 0; i < names.Len(); i++ {
			k := row % n
			wantName, wantID := "a", "id-a"
			if row >= n {
				wantName, wantID = "x/b", "id-b"
			}
			if names.Str(i) != wantName || idc.Str(i) != wantID || is.Int64(i) != s.IssueNs[k] || tk.IsValid(i) != (s.OutTokens[k] >= 0) {
				t.Fatalf("row %d: run %s issue %d", row, names.Str(i), is.Int64(i))
			}
			// Every column's value and validity is the table's.
			for c := range tab.Columns {
				got, want := rec.Column(2+c), &tab.Columns[c]
				if got.IsValid(i) != want.IsValid(k) {
					t.Fatalf("row %d column %s: valid %v, want %v", row, columnar.Schema[c].Name, got.IsValid(i), want.IsValid(k))
				}
				var same bool
				switch got.Type() {
				case batch.Int64:
					same = got.Int64(i) == want.Int64s[k]
				case batch.Int32:
					same = got.Int32(i) == want.Int32s[k]
				case batch.Bool:
					same = got.Bool(i) == want.Bools[k]
				case batch.String:
					same = !got.IsValid(i) || got.Str(i) == want.String(k)
				}
				if !same {
					t.Fatalf("row %d column %s: row %d differs from the table's", row, columnar.Schema[c].Name, i)
				}
			}
			row++
		}
		return nil
	})
	if err != nil || row != 2*n {
		t.Fatalf("%d rows read: %v", row, err)
	}
}
