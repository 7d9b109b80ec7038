package htmlpage

import (
	"context"
	"iter"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/sinks"
)

// Table is every row of a steadysweep table directory (OUT/rows or
// OUT/series) by column name, as the page's record embeds it: each row
// maps a column name to a string, int64, float64, bool or nil (null).
// Columns are the schema's columns some part file has, in schema order,
// so part files written before a column was added read with that column
// absent (nil).
type Table struct {
	Columns []string
	Rows    []map[string]any
}

// ReadRowsTable reads OUT/rows through the rows reader (sinks.ReadRows).
// A missing directory is an empty table.
func ReadRowsTable(ctx context.Context, dir string, mem memory.Allocator) (*Table, error) {
	return tableOf(sinks.ReadRows(ctx, dir, sinks.ReadOptions{Mem: mem}), sinks.RowsColumns(), sinks.RowCells, (*sinks.Row).Has)
}

// ReadSeriesTable reads OUT/series as ReadRowsTable reads OUT/rows.
func ReadSeriesTable(ctx context.Context, dir string, mem memory.Allocator) (*Table, error) {
	return tableOf(sinks.ReadSeries(ctx, dir, sinks.ReadOptions{Mem: mem}), sinks.SeriesColumns(), sinks.SeriesCells, (*sinks.SeriesRow).Has)
}

func tableOf[T any](rows iter.Seq2[T, error], cols []sinks.ColumnDoc, cells func(*T) []any, has func(*T, string) bool) (*Table, error) {
	t := &Table{}
	seen := make([]bool, len(cols))
	for r, err := range rows {
		if err != nil {
			return nil, err
		}
		row := make(map[string]any, len(cols))
		for i, v := range cells(&r) {
			row[cols[i].Name] = v
			seen[i] = seen[i] || has(&r, cols[i].Name)
		}
		t.Rows = append(t.Rows, row)
	}
	for i, c := range cols {
		if seen[i] {
			t.Columns = append(t.Columns, c.Name)
		}
	}
	return t, nil
}
