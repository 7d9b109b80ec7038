package contract

// SetOptional sets entry i of an optional column of n samples, one most
// logs never fill (failure codes, conversation ids, turns; core.Samples:
// an optional column is Len long or empty). The column stays empty while
// every value set is the absent one; at the first other value it is
// made n long, filled with absent, and any later value is set in place.
// The decoder appends a sample's entry as setOptional(col, n+1, n, …).
func SetOptional[T comparable](col *[]T, n, i int, v, absent T) {
	if len(*col) == 0 && v == absent {
		return
	}
	for len(*col) < n {
		*col = append(*col, absent)
	}
	(*col)[i] = v
}
