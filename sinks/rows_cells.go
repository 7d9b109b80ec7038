package sinks

// RowCells are r's values by column in RowsColumns order, as the rows
// table holds them, for pages that show every column by name: string,
// int64, float64 or bool; nil for null and for a column r's part file
// lacks (Row.Has). A row read back shows its own schema version.
func RowCells(r *Row) []any { return cellsOf(rowColumns(), r, r.Has, r.SchemaVersion, r.Stored != nil) }

// SeriesCells are s's values by column in SeriesColumns order, as
// RowCells.
func SeriesCells(s *SeriesRow) []any {
	return cellsOf(seriesColumns(), s, s.Has, s.SchemaVersion, s.Stored != nil)
}

func cellsOf[T any](cols []column[T], v *T, has func(string) bool, version int32, read bool) []any {
	out := make([]any, len(cols))
	for i := range cols {
		switch {
		case !has(cols[i].name):
		case cols[i].name == "schema_version" && read:
			out[i] = int64(version)
		default:
			out[i] = cols[i].cell(v)
		}
	}
	return out
}
