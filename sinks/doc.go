// Package sinks writes sweep results as Parquet datasets.
//
// A sweep output directory OUT holds two tables, each a directory of part
// files that reads as one dataset (pyarrow.dataset, DuckDB, Polars):
//
//	OUT/rows/part-<shard>-<seq>.parquet    one row per run × parameter set (RowsSchema)
//	OUT/series/part-<shard>-<seq>.parquet  one row per run × super-pass   (SeriesSchema)
//
// Files are written as .part-<shard>-<seq>.parquet.tmp and renamed when
// complete, so a reader never sees a half-written file. Row groups are
// flushed every WriterOptions.RowsPerGroup rows (bounding memory) and a
// part file is closed and renamed every RowsPerFile rows or MaxFileAge,
// whichever comes first (bounding what a hard kill can lose). Columns are
// flat, zstd-compressed, units in their names (_ns, _s); only
// low-cardinality strings are dictionary-encoded; NaN is written as null.
package sinks
