package sinkstest

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
)

// EachRecord reads each Parquet file with parquetio and calls fn for every
// record batch, copied into an Arrow record allocated from mem (valid
// during the call); a file that is not valid Parquet fails the test.
func EachRecord(t testing.TB, files []string, mem memory.Allocator, fn func(file string, rec arrow.RecordBatch)) {
	t.Helper()
	for _, f := range files {
		r, err := parquetio.Open(f)
		if err != nil {
			t.Fatalf("%s is not valid Parquet: %v", f, err)
		}
		err = r.Each(context.Background(), nil, 1<<16, func(b *batch.Batch) error {
			rec := arrowbatch.Record(b, mem)
			defer rec.Release()
			fn(f, rec)
			return nil
		})
		r.Close()
		if err != nil {
			t.Fatalf("%s is not valid Parquet: %v", f, err)
		}
	}
}
