package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar"
)

// streamedSection measures issue 32's targets on the layout the endpoints
// client writes for streamed answers (benchlog.StreamedShape): decode with
// word counts of the two-chunk and the chunk-per-word variants beside the
// bufio floor, and analyze of the 185 MB two-chunk run against the
// reference as a user runs it (streamedEndToEnd).
func streamedSection(e *env) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "## 7. The streamed layout (issue 32)\n\n")
	size := int64(185e6)
	if e.quick {
		size /= 10
	}
	type shape struct {
		name     string
		chunking benchlog.Chunking
		dir      string
		size     int64
	}
	shapes := []*shape{{name: "two chunks `[first, rest]`", chunking: benchlog.TwoChunks}, {name: "a chunk per word", chunking: benchlog.ChunkPerWord}}
	for i, s := range shapes {
		s.dir = filepath.Join(e.work, fmt.Sprintf("streamed-%d", i))
		e.logf("streamed: generating %s (%d MB)", s.name, size/1e6)
		var err error
		if s.size, err = bench.GenerateStreamedRun(s.dir, s.chunking, size); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(&b, "`benchlog.StreamedShape`: 32 samples in flight, prompts of 100–400 words, answers of 100–500 words of markdown-like text "+
		"(escaped line breaks every sentence or so, blank lines, list items, quoted words, non-ASCII words), as the endpoints client writes them "+
		"(`[first_chunk, rest_joined]`, spec/event-log.md §1.4) and as one string per word; the sidecars of `bench.AnalyzeSpec()` (dataset 1000).\n\n")

	fmt.Fprintf(&b, "### Decode, word counts included\n\n`columnar.DecodeReader` with `tokenizer.Words`, one worker, page cache warm, against `bufio.Scanner` "+
		"splitting the same file; MB/CPU-s is bytes over the process's CPU time. Median of %d.\n\n", e.reps)
	fmt.Fprintf(&b, "| log | size | decode MB/CPU-s | decode MB/s | bufio floor MB/CPU-s |\n|---|---:|---:|---:|---:|\n")
	// Beside them the parity shape of section 6 (["The", rest], plain
	// ASCII, no escapes), measured here too so that the three compare
	// within one run.
	parity := &shape{name: "parity shape (`benchlog.ParityShape`)", dir: filepath.Join(e.work, "streamed-parity")}
	if err := os.MkdirAll(parity.dir, 0o755); err != nil {
		return "", err
	}
	pf, err := os.Create(filepath.Join(parity.dir, "events.jsonl"))
	if err != nil {
		return "", err
	}
	parity.size, err = benchlog.ParityShape(pf, size)
	if err := errorsJoin(err, pf.Close()); err != nil {
		return "", err
	}
	for _, s := range append(shapes[:len(shapes):len(shapes)], parity) {
		path := filepath.Join(s.dir, "events.jsonl")
		if err := warmFile(path); err != nil {
			return "", err
		}
		e.logf("streamed: decode %s ×%d", s.name, e.reps)
		var dec, fl []bench.Sample
		for range e.reps { // interleaved with the floor
			d, err := repeatGC(1, func() error { _, err := decodeOnce(path, 1, true); return err })
			if err != nil {
				return "", err
			}
			f, err := repeatGC(1, func() error { _, err := lineSplit(path); return err })
			if err != nil {
				return "", err
			}
			dec, fl = append(dec, d...), append(fl, f...)
		}
		m, mf := measured{size: s.size, samples: dec}, measured{size: s.size, samples: fl}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", s.name, fmtMB(s.size), fmtRange(m.mbPerCPU(), "%.0f"), fmtRange(m.mbps(), "%.0f"), fmtRange(mf.mbPerCPU(), "%.0f"))
	}
	decoded = columnar.Decoded{}
	b.WriteString("\n")

	e2e, err := streamedEndToEnd(e, shapes[0].dir, shapes[0].size, shapes[1].dir, shapes[1].size)
	if err != nil {
		return "", err
	}
	b.WriteString(e2e)
	return b.String(), nil
}
