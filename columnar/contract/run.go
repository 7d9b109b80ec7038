package contract

import (
	"fmt"
	"math"
	"strconv"

	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/core"
)

// Run is a resolved benchmark run: its events file and what its sidecars
// say about it.
type Run struct {
	// Dir is the directory holding the events file (sidecars are read
	// from there, detector spec §2.1).
	Dir string
	// EventsPath is the events file.
	EventsPath string
	// Compression is "" (plain), "gzip" or "zstd".
	Compression string
	// Info is what the detector needs, filled from the sidecars.
	Info core.RunInfo
	// Sidecars holds the parsed sidecar files.
	Sidecars sidecar.Sidecars
	// Warnings lists missing-but-expected or malformed sidecars.
	Warnings []string
	// Format is the log's format, detected from its content.
	Format Format
	// Part is the benchmark of a GuideLLM report (its benchmarks[] index),
	// -1 for the other formats.
	Part int
}

// Warnf records a warning, made one line (a YAML decoder's error spans
// several).
func (r *Run) Warnf(format string, args ...any) {
	r.Warnings = append(r.Warnings, sidecar.OneLine(fmt.Sprintf(format, args...)))
}

// SourcePath is the file the run's samples come from, with "#N" for one
// benchmark of a GuideLLM report (the syntax ResolveRun accepts back).
func (r *Run) SourcePath() string {
	if (r.Format == FormatGuideLLM || ResultsFormat(r.Format)) && r.Part >= 0 {
		return r.EventsPath + "#" + strconv.Itoa(r.Part)
	}
	return r.EventsPath
}

// FinishInfo stamps info with the run's source (format, path, whether
// tokens were recorded) and gives a format without a dataset pass its
// default super-pass size (unless --dataset-size set one).
func FinishInfo(run *Run, info *core.RunInfo, s *core.Samples) {
	f := run.Format
	if f == "" {
		f = FormatEndpoints
	}
	info.SourceFormat, info.SourcePath, info.TokensRecorded = string(f), run.SourcePath(), f.RecordsTokens()
	if !f.HasDatasetPass() {
		applyDefaultSuperpass(info, s)
	}
	FiniteInfo(run, info)
}

// FiniteInfo clears, with a warning, any float of info that is not a
// finite number, whichever reader filled it: RunInfo is stored as JSON
// with the columns, which has no NaN or infinity, and a run fact that is
// not a number is no fact. (config.yaml's keys are checked by name where
// they are read, sidecar.go; this is the net under every reader.)
func FiniteInfo(run *Run, info *core.RunInfo) {
	for _, f := range []struct {
		name string
		v    *float64
	}{
		{"target QPS", &info.TargetQPS},
		{"min duration", &info.MinDurationS},
		{"max duration", &info.MaxDurationS},
	} {
		if math.IsNaN(*f.v) || math.IsInf(*f.v, 0) {
			run.Warnf("%s: run info: %s is %v, not a finite number; ignored", run.SourcePath(), f.name, *f.v)
			*f.v = 0
		}
	}
}
