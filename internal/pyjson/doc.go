// Package pyjson writes JSON the way Python's json.dumps(v, indent=2)
// does, with Python's float repr, and reads JSON keeping key order and
// numbers as written, so a document can be re-encoded exactly. It is the
// one Python-layout formatter of the module: the reference's --json
// bytes (sinks/resultjson), the augmented result summary
// (sinks/submission) and the point.yaml numbers use it.
//
// It imports only the standard library, so every package but core may
// use it (docs/architecture.txt).
package pyjson
