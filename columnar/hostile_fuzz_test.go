package columnar

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
)

// FuzzYAMLReport: any bytes as a GuideLLM YAML report: the alias budget
// holds (no expansion beyond it), counting benchmarks and reading the
// first never panic, and a refusal is ErrYAMLAliases or a YAML error.
func FuzzYAMLReport(f *testing.F) {
	f.Add([]byte(guidellmYAMLAliased(20, 3)))
	f.Add([]byte("a: &a [x, x]\nb: &b [*a, *a]\nbenchmarks: [*b, *b]\n"))
	f.Add([]byte("benchmarks:\n  - requests:\n      successful:\n        - request_start_time: 1.5\n          request_latency: 1\n"))
	f.Add([]byte("a: &a [*a]\nbenchmarks: []\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 1<<16 {
			return
		}
		v, err := foreign.DecodeYAMLBounded(doc)
		if err == nil {
			_ = foreign.Jsonable(v)
		}
		path := filepath.Join(t.TempDir(), "report.yaml")
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		n, _ := foreign.GuideLLMBenchmarks(context.Background(), path)
		if n > 0 {
			run := &contract.Run{EventsPath: path, Format: contract.FormatGuideLLM, Part: 0}
			var d contract.Decoded
			_, _ = foreign.GuideLLMReader{}.Read(context.Background(), run, contract.IngestOptions{}, &d)
		}
	})
}

// FuzzCompressedStream: any bytes behind a gzip or zstd magic (and any
// zstd frame header) are read through openEvents without a panic and
// within the expansion bound.
func FuzzCompressedStream(f *testing.F) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"event_type":"x"}` + "\n"))
	zw.Close()
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	f.Add(gz.Bytes())
	f.Add(enc.EncodeAll(bytes.Repeat([]byte("a\n"), 1000), nil))
	f.Add(zstdFrameWindow(30, []byte("a\n")))
	f.Add(zstdFrameWindow(27, []byte("a\n")))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "events.jsonl.zst")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		rc, err := contract.OpenEvents(path)
		if err != nil {
			return
		}
		defer rc.Close()
		n, err := io.Copy(io.Discard, rc)
		if limit := int64(len(b))*contract.MaxExpansion + contract.ExpansionSlack; n > limit+(1<<20) {
			t.Fatalf("%d bytes decompressed from %d (bound %d)", n, len(b), limit)
		}
		// Refused for its window only when its first frame declares one
		// over the cap (RFC 8878 §3.1.1.1); else only past the bound.
		if limit := int64(len(b))*contract.MaxExpansion + contract.ExpansionSlack; errors.Is(err, contract.ErrExpansion) && n < limit && contract.ZstdDeclaredWindow(b) <= contract.MaxZstdWindow {
			t.Fatalf("refused at %d bytes with a window of %d declared: %v", n, contract.ZstdDeclaredWindow(b), err)
		}
	})
}

// FuzzMultiBenchmark: a report of three benchmarks and a fourth of fuzzed
// bytes: indexing it and reading every indexed benchmark from its offset
// never panics (a damaged one is an error or a truncated run).
func FuzzMultiBenchmark(f *testing.F) {
	f.Add([]byte(`{"requests": {"successful": [{"request_start_time": 1.5, "request_latency": 1}]}}`))
	f.Add([]byte(`{"requests": {"successful": [`))
	f.Add([]byte(`"x"`))
	f.Add([]byte(`{"requests": {"errored": [{}], "incomplete": null}}, {}`))
	f.Fuzz(func(t *testing.T, bench []byte) {
		if len(bench) > 1<<16 {
			return
		}
		doc := []byte(`{"args": {}, "benchmarks": [` + multiBenchmarkReport(3)[len(`{"metadata": {"guidellm_version": "0.5.0"}, "args": {"model": "m"}, "benchmarks": [`):])
		doc = append(append(append(doc[:len(doc)-2:len(doc)-2], ", "...), bench...), "]}"...)
		path := filepath.Join(t.TempDir(), "report.json")
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		n, _ := foreign.GuideLLMBenchmarks(context.Background(), path)
		for p := range n {
			run := &contract.Run{EventsPath: path, Format: contract.FormatGuideLLM, Part: p}
			var d contract.Decoded
			if _, err := (foreign.GuideLLMReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err == nil {
				if d.Samples.Len() < 0 {
					t.Fatal("negative samples")
				}
			}
		}
	})
}
