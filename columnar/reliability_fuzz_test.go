package columnar

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// sidecarEvents is a minimal log with two tracked samples.
const sidecarEvents = `{"event_type":"session.start_performance_tracking","timestamp_ns":1}
{"event_type":"sample.issued","timestamp_ns":10,"sample_uuid":"a"}
{"event_type":"sample.recv_first","timestamp_ns":20,"sample_uuid":"a"}
{"event_type":"sample.complete","timestamp_ns":40,"sample_uuid":"a","data":["T",["x"," y z"],null,null]}
{"event_type":"sample.issued","timestamp_ns":50,"sample_uuid":"b"}
{"event_type":"sample.complete","timestamp_ns":90,"sample_uuid":"b","data":["T","w",null,null]}
{"event_type":"session.ended","timestamp_ns":100}
`

// FuzzSidecars writes arbitrary config.yaml, run_meta.json,
// sample_idx_map.json, performance/result_summary.json and
// metrics/final_snapshot.json beside a small good log, then resolves and
// ingests the run. Properties: no panic; a malformed sidecar is a
// warning, never an error; the dataset size is positive with a named
// source, or 0 with none; every dataset index is a known one or null.
//
//	go test -run '^$' -fuzz FuzzSidecars -fuzztime 60s ./columnar/
func FuzzSidecars(f *testing.F) {
	good := func(b []byte) []byte { return b }
	f.Add(good([]byte("type: online\nmodel_params: {name: m}\nsettings:\n  load_pattern: {type: concurrency, target_concurrency: 4}\n")),
		[]byte(`{"dataset_size": 2}`), []byte(`{"performance": {"a": 0, "b": 1}}`),
		[]byte(`{"version":"1","ttft":{"percentiles":{"99.0":5,"50":1}},"n_samples_issued":2}`),
		[]byte(`{"state":"complete","metrics":[{"type":"counter","name":"x","value":1}]}`))
	f.Add([]byte("model_params: [unclosed\n\t- : : {\n"), []byte(`{"dataset_size": -8}`), []byte(`[]`), []byte(`{"ttft":{"percentiles":{"p":null}}}`), []byte(`null`))
	f.Add([]byte("&a [*a]"), []byte(`{"dataset_size": "  7 "}`), []byte(`{"performance": {"a": -1, "b": 1e400, "c": "x"}}`), []byte(`{"x": {"percentiles": []}}`), []byte(`{"metrics": [1, {"type": "counter"}]}`))
	f.Add([]byte("settings: {load_pattern: 3, runtime: [1], warmup: {n_requests: 1e300}}\ndatasets: [1, {agentic_inference: {num_trajectories_to_issue: -1e30}}]\n"),
		[]byte(`{"dataset_size": 1e999}`), []byte(`{"performance": null}`), []byte("\xff"), []byte(`{}`))
	f.Add([]byte("a: &x [*x, *x, *x]\nb: !!binary AAAA\nc: !!float .nan\n"), []byte(`{"dataset_size": true}`), []byte(`{"performance": {}}`), []byte{}, []byte(`{"state": 5, "n_pending_tasks": "x"}`))
	// Issue 17 item 8: non-finite values failed the run at "encode run
	// info"; issue 17 item 2: sizes beyond any integer.
	f.Add([]byte("settings:\n  runtime: {min_duration_ms: .inf, max_duration_ms: -.inf, n_samples_to_issue: .nan}\n  load_pattern: {type: poisson, target_qps: .nan, target_concurrency: 1.0e+300}\n"),
		[]byte(`{"dataset_size": 1e300}`), []byte(`{"performance": {"a": 99999999999999999999}}`), []byte(`{"n_samples_issued": 1e400}`), []byte(`{"n_pending_tasks": -1e308}`))
	f.Add([]byte("a: 1\na: 2\nb: [1\n"), []byte(`{}`), []byte(`{}`), []byte(`{}`), []byte(`{}`))
	// main's CI (a1041d9): "Ingest: encode run info: json: unsupported
	// value: NaN". Every float key the config reader reads, in each of
	// YAML's spellings of a non-finite float, under both places a load
	// pattern may be.
	f.Add([]byte("load_pattern: {type: poisson, target_qps: !!float .nan, target_concurrency: .NaN}\nsettings:\n  runtime: {min_duration_ms: .NAN, max_duration_ms: !!float -.inf, n_samples_to_issue: +.Inf}\n  warmup: {n_requests: -.INF}\ndatasets: [{agentic_inference: {num_trajectories_to_issue: .inf}}]\n"),
		[]byte(`{"dataset_size": 2}`), []byte(`{}`), []byte(`{}`), []byte(`{}`))
	f.Add([]byte("settings:\n  load_pattern: {type: concurrency, target_qps: -.Inf, target_concurrency: !!float .inf}\n  runtime: {min_duration_ms: .Inf, max_duration_ms: .nan}\n"),
		[]byte(`{}`), []byte(`{}`), []byte(`{}`), []byte(`{}`))
	dir := f.TempDir() // one worker runs one input at a time: reuse it
	f.Fuzz(func(t *testing.T, config, runMeta, sampleIdx, resultSummary, snapshot []byte) {
		files := map[string][]byte{
			"events.jsonl":                    []byte(sidecarEvents),
			"config.yaml":                     config,
			"run_meta.json":                   runMeta,
			"sample_idx_map.json":             sampleIdx,
			"performance/result_summary.json": resultSummary,
			"metrics/final_snapshot.json":     snapshot,
		}
		for name, b := range files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run, err := ResolveRun(context.Background(), dir)
		if err != nil {
			t.Fatalf("ResolveRun: %v (a sidecar must never make a run unresolvable)", err)
		}
		info := run.Info
		if (info.DatasetSize > 0) != (info.DatasetSizeSource != "") || info.DatasetSize < 0 {
			t.Fatalf("dataset size %d from %q", info.DatasetSize, info.DatasetSizeSource)
		}
		for _, w := range run.Warnings {
			if !strings.Contains(w, dir) {
				t.Fatalf("warning %q does not name its file", w)
			}
			if strings.Contains(w, "\n") {
				t.Fatalf("warning %q is more than one line", w)
			}
		}
		tab, err := Ingest(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}, Workers: 1})
		if err != nil {
			t.Fatalf("Ingest: %v", err)
		}
		if n := tab.Rows; n != 2 {
			t.Fatalf("%d samples, want 2", n)
		}
		if tab.Summary.ProblemTotal() != 0 {
			t.Fatalf("sidecars changed the events' problems: %v", tab.Summary.Warnings())
		}
		idx := &tab.Columns[contract.ColDatasetIndex]
		si := run.Sidecars.SampleIndex
		for i := range tab.Rows {
			if !idx.IsValid(i) {
				continue
			}
			if si == nil || !si.Performance {
				t.Fatalf("row %d has a dataset index without a sample index", i)
			}
		}
	})
}

// FuzzCompressedEvents corrupts a gzip or zstd events stream: data is
// XORed into the compressed bytes at off, and the stream cut at cut.
// Properties: no panic, no error but a corrupt-stream ParseError from
// opening it; every problem names a line ≥ 1; the summary and the
// columns agree on the number of samples.
//
//	go test -run '^$' -fuzz FuzzCompressedEvents -fuzztime 60s ./columnar/
func FuzzCompressedEvents(f *testing.F) {
	plain := []byte(sidecarEvents)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	zs := enc.EncodeAll(plain, nil)
	enc.Close()
	streams := [][]byte{gz.Bytes(), zs}
	for _, s := range []struct {
		zstd     bool
		off, cut uint16
		data     []byte
	}{{false, 0, 0, nil}, {true, 0, 0, nil}, {false, 30, 0, []byte{0xff}}, {true, 12, 0, []byte{1, 2, 3}}, {false, 0, 40, nil}, {true, 0, 9, nil}, {true, 4, 0, []byte{0x80}}} {
		f.Add(s.zstd, s.off, s.cut, s.data)
	}
	f.Fuzz(func(t *testing.T, useZstd bool, off, cut uint16, data []byte) {
		src := streams[0]
		if useZstd {
			src = streams[1]
		}
		b := bytes.Clone(src)
		for i, x := range data {
			if j := int(off) + i; j < len(b) {
				b[j] ^= x
			}
		}
		if c := int(cut); c > 0 && c < len(b) {
			b = b[:c]
		}
		rc, err := contract.Decompress(bytes.NewReader(b), "f")
		if err != nil {
			if !errors.Is(err, contract.ErrCorruptStream) {
				t.Fatalf("open: %v, want a corrupt-stream error", err)
			}
			return
		}
		var d contract.Decoded
		if err := endpoints.DecodeReader(context.Background(), rc, endpoints.DecodeOptions{Name: "f", Counter: tokenizer.Words{}, Workers: 1}, &d); err != nil {
			t.Fatalf("decode: %v", err)
		}
		if d.Summary.Samples != d.Samples.Len() || len(d.TextBytes) != d.Samples.Len() {
			t.Fatalf("summary counts %d samples, columns hold %d (text %d)", d.Summary.Samples, d.Samples.Len(), len(d.TextBytes))
		}
		for _, p := range d.Summary.Problems {
			for _, e := range p.First {
				if e.Line < 1 {
					t.Fatalf("problem %v at line %d", e, e.Line)
				}
			}
		}
	})
}
