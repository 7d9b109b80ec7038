package samplesparquet

import (
	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
)

// tableFields and tableColumns are the one place that reads a
// columnar.Table's columns: the table's fields (without its metadata)
// and a column per field. Today the table holds an Arrow record, copied
// through arrowbatch; when the table holds its own columns (h32table's
// work on issue 32) only these two change.
func tableFields() []batch.Field { return arrowbatch.Schema(columnar.Schema).Fields() }

func tableColumns(t *columnar.Table) []*batch.Column {
	return arrowbatch.Batch(t.Record).Columns()
}
