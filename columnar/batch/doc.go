// Package batch is steadysweep's in-memory column batch: a schema of
// flat fields (name, type, nullable, key-value metadata) and typed
// columns of bool, int32, int64, float64 and utf8 values with their
// validity, appended to in place. It is what columnar/parquetio writes
// and reads and what the sinks build their rows in.
//
// Why its own and not arrow-go's arrays: linking arrow/array costs every
// process 2.5 ms of CPU and 65 page faults before main (the package
// initialisation of arrow's flatbuffers, goccy/go-json, xxh3's CPU
// detection and more; issue 32), and the tables need none of Arrow's
// generality: flat columns of five types, no nesting, no sharing, no
// reference counting. Only what our code uses is here.
//
// One concept per file: type.go (the column types), metadata.go,
// schema.go (fields and schemas), column.go (a typed column and its
// appenders), batch.go (columns of one schema).
package batch
