package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// LogSpec is the run every size-based measurement generates: the
// clean_ramp preset (closed loop, C=16, a short admission ramp, then a flat
// plateau) with long streamed answers (about 1,200 words a sample, like
// synth's own BenchmarkGenerateLog) and a dataset of 400 samples, so a
// 200 MB log holds about 60 super-passes.
func LogSpec() synth.Spec {
	spec, err := synth.PresetSpec("clean_ramp", 20261129)
	if err != nil {
		panic("bench: " + err.Error())
	}
	spec.OutputScale, spec.MaxNewTokens = 20, 8192
	spec.DatasetSize = 400
	return spec
}

// GenerateRun writes a run directory of about targetBytes into dir:
// events.jsonl from synth.GenerateLog, and config.yaml and run_meta.json
// (dataset size) from a small synth.Generate of the same spec, so the
// sidecars say what a real run's would. sample_idx_map.json and truth.json
// of the small run are removed: they would not match the big log. It
// returns the size of events.jsonl.
func GenerateRun(dir string, spec synth.Spec, targetBytes int64) (int64, error) {
	return generateRun(dir, spec, func(w io.Writer) error { return synth.GenerateLog(w, spec, targetBytes) })
}

// GenerateStreamedRun writes a run directory whose events.jsonl is about
// targetBytes of benchlog.StreamedShape (the endpoints client's streamed
// layout) with the sidecars of AnalyzeSpec (dataset size 1000).
func GenerateStreamedRun(dir string, chunking benchlog.Chunking, targetBytes int64) (int64, error) {
	return generateRun(dir, AnalyzeSpec(), func(w io.Writer) error {
		_, err := benchlog.StreamedShape(w, targetBytes, chunking)
		return err
	})
}

// generateRun writes spec's sidecars (from a small run of it, without
// sample_idx_map.json and truth.json, which the big log would contradict)
// and the events.jsonl that write writes; it returns the log's size.
func generateRun(dir string, spec synth.Spec, write func(io.Writer) error) (int64, error) {
	small := spec
	small.Passes = 3
	small.OutputScale = 1
	if _, err := synth.Generate(dir, small); err != nil {
		return 0, fmt.Errorf("bench: sidecars: %w", err)
	}
	for _, name := range []string{"sample_idx_map.json", "truth.json"} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, err
		}
	}
	path := filepath.Join(dir, "events.jsonl")
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w); err != nil {
		f.Close()
		return 0, err
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		return 0, fmt.Errorf("bench: write %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// AnalyzeSpec is the run of issue 16's end-to-end comparison: LogSpec's
// closed loop with a 1,000-sample dataset and shorter answers (output
// scale 7, about 3 KB of log a sample), so 183 MB hold 60 super-passes.
func AnalyzeSpec() synth.Spec {
	spec := LogSpec()
	spec.OutputScale, spec.DatasetSize = 7, 1000
	return spec
}
