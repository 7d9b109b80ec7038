package parquetio

import "slices"

// Options are a Writer's settings. The zero value (and a nil *Options)
// writes uncompressed version-1 data pages, no dictionaries, a row group
// per Write of at most DefaultRowGroupRows rows.
type Options struct {
	// Compression is the codec of every page: Uncompressed, Snappy or
	// Zstd.
	Compression Codec
	// Dictionary names the columns written with a dictionary page and
	// RLE_DICTIONARY indices (columns of few distinct values: run ids,
	// statuses); DictionaryAll puts every column but booleans there.
	Dictionary    []string
	DictionaryAll bool
	// MaxRowGroupRows is the most rows of a row group (≤ 0:
	// DefaultRowGroupRows).
	MaxRowGroupRows int64
	// PageRows and PageBytes cut a column chunk into data pages (≤ 0:
	// 20,000 rows, 1 MiB of values, the arrow-go and arrow-rs defaults);
	// DictionaryPageBytes is the dictionary size past which the rest of
	// the chunk is written PLAIN (≤ 0: 1 MiB).
	PageRows            int
	PageBytes           int
	DictionaryPageBytes int
	// DataPageV2 writes DATA_PAGE_V2 pages (levels outside the
	// compressed block) instead of version-1 ones.
	DataPageV2 bool
	// CreatedBy is the footer's created_by (empty: "steadysweep").
	CreatedBy string
}

// DefaultRowGroupRows is the row-group size when Options give none
// (pqarrow's default: in practice one row group per Write).
const DefaultRowGroupRows = 64 << 20

// withDefaults fills the zero settings.
func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.MaxRowGroupRows <= 0 {
		out.MaxRowGroupRows = DefaultRowGroupRows
	}
	if out.PageRows <= 0 {
		out.PageRows = 20_000
	}
	if out.PageBytes <= 0 {
		out.PageBytes = 1 << 20
	}
	if out.DictionaryPageBytes <= 0 {
		out.DictionaryPageBytes = 1 << 20
	}
	if out.CreatedBy == "" {
		out.CreatedBy = "steadysweep"
	}
	return out
}

// dictionaryFor reports whether column name is dictionary-encoded.
func (o *Options) dictionaryFor(name string) bool {
	return o.DictionaryAll || slices.Contains(o.Dictionary, name)
}
