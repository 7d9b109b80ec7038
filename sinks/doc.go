// Package sinks writes analysis results: sweep rows as Parquet datasets
// (this file's subject; rows_*.go, series_schema.go, part_writer.go), and
// single-run text reports and plots (report*.go, plot*.go).
//
// A sweep output directory OUT holds two tables, each a directory of part
// files that reads as one dataset (pyarrow.dataset, DuckDB, Polars):
//
//	OUT/rows/part-<shard>-<seq>.parquet    one row per run × parameter set (RowsSchema)
//	OUT/series/part-<shard>-<seq>.parquet  one row per run × super-pass   (SeriesSchema)
//
// Files are written as .part-<shard>-<seq>.parquet.<random>.tmp (by
// internal/atomicfile) and renamed when complete, so a reader never sees a
// half-written file. Row groups are
// flushed every WriterOptions.RowsPerGroup rows (bounding memory) and a
// part file is closed and renamed every RowsPerFile rows or MaxFileAge,
// whichever comes first (bounding what a hard kill can lose). Columns are
// flat, zstd-compressed, units in their names (_ns, _s); only
// low-cardinality strings are dictionary-encoded; NaN is written as null.
package sinks
