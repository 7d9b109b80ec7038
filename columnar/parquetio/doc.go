// Package parquetio writes and reads the flat Parquet tables of
// steadysweep (sweep rows and series, calibration.parquet, exported
// samples) with arrow-go's low-level parquet/file API, column chunk by
// column chunk, instead of its pqarrow bridge.
//
// pqarrow imports arrow/flight (for the one call that serialises the
// stored Arrow schema), and with it gRPC and protobuf: about a hundred
// packages whose initialisation cost every steadysweep process, even
// "steadysweep version", some 10 MiB of resident memory at start-up.
// This package writes what pqarrow wrote (the same Parquet types, the
// same key-value metadata with the Arrow schema under "ARROW:schema",
// the same column-writer calls) and reads the files pqarrow wrote, for
// the column types the tables use: bool, int32, int64, float64, utf8.
//
// It lives under columnar so that columnar/samplesparquet may use it;
// it imports no package of ours.
package parquetio
