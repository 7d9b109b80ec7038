// Package parquetio writes and reads the flat Parquet tables of
// steadysweep (sweep rows and series, calibration.parquet, exported
// samples, and Parquet logs of other tools) with its own codec, between
// columnar/batch's column batches and the file format of apache/parquet-format
// (parquet.thrift and Encodings.md at 010f49b89eab98b498986709be5fedaaf2ea916f).
//
// Why its own: arrow-go's Parquet packages import arrow/compute, whose
// kernel registry initialises in every process that links them (5 ms and
// 6,485 allocations before main, a 60 MB binary, 24 MB resident for
// "steadysweep --version"; issue 32), and pqarrow adds Arrow Flight,
// gRPC and protobuf (issue 16). The tables need little of the format:
// flat columns of bool, int32, int64, float64 and utf8, required or
// optional.
//
// Writing: PLAIN values, RLE/bit-packed definition levels, a dictionary
// page and RLE_DICTIONARY indices for the columns Options name (falling
// back to PLAIN past a size), version-1 or -2 data pages, zstd, snappy or
// none, per-chunk null count and min/max statistics, the schema's
// metadata and the Arrow schema itself ("ARROW:schema", as pqarrow's
// WithStoreSchema writes it, byte for byte: stored_schema.go) in the
// footer, so DuckDB, Polars, pyarrow and pqarrow read the same types and
// metadata. It links no arrow-go package: their initialisation alone
// cost every process 2.5 ms of CPU (issue 32).
//
// Reading: version-1 and -2 data pages in PLAIN, PLAIN_DICTIONARY /
// RLE_DICTIONARY, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
// DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT and RLE (booleans), compressed with
// none, snappy, gzip or zstd: every file arrow-go wrote for us before,
// and what arrow-rs, parquet-mr and pyarrow write for these types. Every
// length read from a file (footer, page sizes, value counts, string
// lengths, dictionary sizes) is checked against the bytes that hold it
// before anything is allocated for it; errors name the file, row group,
// column and field.
//
// One concept per file: thrift.go (the compact protocol), footer.go
// (FileMetaData), page_header.go, rle.go, plain.go, dictionary.go,
// delta.go, codec.go, schema.go, options.go, chunk_writer.go and
// writer.go, chunk_reader.go and reader.go, stored_schema.go. The tests
// cross-check against arrow-go (a test dependency only: the binary does
// not link it).
//
// It lives under columnar so that columnar/samplesparquet may use it;
// it imports columnar/batch alone of ours.
package parquetio
