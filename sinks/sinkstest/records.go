package sinkstest

import (
	"context"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// EachRecord reads each Parquet file with arrow-go and calls fn for every
// record batch (valid during the call); a file that is not valid Parquet
// fails the test.
func EachRecord(t testing.TB, files []string, mem memory.Allocator, fn func(file string, rec arrow.RecordBatch)) {
	t.Helper()
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		tbl, err := pqarrow.ReadTable(context.Background(), fh, parquet.NewReaderProperties(mem), pqarrow.ArrowReadProperties{}, mem)
		fh.Close()
		if err != nil {
			t.Fatalf("%s is not valid Parquet: %v", f, err)
		}
		tr := array.NewTableReader(tbl, 1<<16)
		for tr.Next() {
			fn(f, tr.RecordBatch())
		}
		tr.Release()
		tbl.Release()
	}
}
