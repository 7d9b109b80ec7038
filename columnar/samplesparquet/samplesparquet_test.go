package samplesparquet

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// TestWrite: the Parquet file reads back with every row of both tables,
// keyed by run_id and run_rel, with the columns' values.
func TestWrite(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	run, err := columnar.ResolveRun(filepath.Join("..", "..", "testdata", "goodrun"))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := columnar.Ingest(context.Background(), run, columnar.IngestOptions{Counter: tokenizer.Words{}, Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Release()
	var buf bytes.Buffer
	if err := write(&buf, []NamedTable{{"id-a", "a", tab}, {"id-b", "x/b", tab}}, mem); err != nil {
		t.Fatal(err)
	}
	back, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(buf.Bytes()), parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	n := int(tab.Record.NumRows())
	if int(back.NumRows()) != 2*n || int(back.NumCols()) != len(columnar.Schema.Fields())+2 {
		t.Fatalf("read back %d rows %d cols", back.NumRows(), back.NumCols())
	}
	if f := back.Schema().Fields(); f[0].Name != "run_id" || f[1].Name != "run_rel" {
		t.Fatalf("leading columns %s, %s", f[0].Name, f[1].Name)
	}
	ids := back.Column(0).Data().Chunks()
	runs := back.Column(1).Data().Chunks()
	issue := back.Column(2 + columnar.ColIssueNs).Data().Chunks()
	tokens := back.Column(2 + columnar.ColOutputTokens).Data().Chunks()
	s := tab.Samples()
	row := 0
	for c := range runs {
		names, idc := runs[c].(*array.String), ids[c].(*array.String)
		is := issue[c].(*array.Int64)
		tk := tokens[c].(*array.Int64)
		for i := 0; i < names.Len(); i++ {
			k := row % n
			wantName, wantID := "a", "id-a"
			if row >= n {
				wantName, wantID = "x/b", "id-b"
			}
			if names.Value(i) != wantName || idc.Value(i) != wantID || is.Value(i) != s.IssueNs[k] || tk.IsValid(i) != (s.OutTokens[k] >= 0) {
				t.Fatalf("row %d: run %s issue %d", row, names.Value(i), is.Value(i))
			}
			row++
		}
	}
}
