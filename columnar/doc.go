// Package columnar turns an MLCommons endpoints events log into per-sample
// columns: the input of the steady-state detector.
//
// A run directory (or an events file) is resolved with ResolveRun, which
// also reads the sidecars beside the log (config.yaml, run_meta.json,
// sample_idx_map.json, performance/result_summary.json,
// metrics/final_snapshot.json). Ingest decodes the log, plain, gzip or
// zstd, into a Table: one row per performance-tracked sample, in issue
// order, with the reference detector's gating (detector spec §3).
//
// One event line, as the current writer emits it,
//
//	{"event_type":"sample.complete","timestamp_ns":81236512000000,"sample_uuid":"5d0c7e2f0b8a4c1f9e3a2b1c0d9e8f7a","conversation_id":"","turn":null,"data":["TextModelOutput",["The"," article argues that ..."],null,null],"finish_reason":"stop","worker_id":3}
//
// completes the sample issued under that uuid: it sets the row's
// complete_ns (81236512000000), latency_ns (complete − issue) and
// out_tokens, the token count of the text after the first chunk
// (" article argues that ...": 4 words with a whitespace counter). The
// output text itself is counted as the line is decoded and never kept.
//
// Decoding runs in two phases: phase 1, parallel over blocks of whole
// lines, scans each line with a hand-written JSON scanner into a compact
// event record (type, uuid, timestamp, turn, token count); phase 2 applies
// the reference's state machine to the records in file order. Bad lines
// never stop the decoder: each is counted by kind with its line number
// (ParseError) and the rest of the log is ingested.
//
// The package is built in rooms, each importing only those below it:
// columnar/scan (byte scanners), columnar/sidecar (the sidecar files),
// columnar/contract (the declarations named here: run, format, Reader,
// decoded columns, options, errors), columnar/endpoints (the events-log
// decoder above), columnar/foreign (other tools' logs), columnar/cache
// (the cache's entries). This package names the contract for callers,
// resolves runs, detects formats and picks each format's Reader.
package columnar
