package columnar

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/safeopen"
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
	Sidecars Sidecars
	// Warnings lists missing-but-expected or malformed sidecars.
	Warnings []string
	// Format is the log's format, detected from its content.
	Format Format
	// Part is the benchmark of a GuideLLM report (its benchmarks[] index),
	// -1 for the other formats.
	Part int
}

// eventsNames are the events file names looked up in a directory, in
// order of preference.
var eventsNames = []string{"events.jsonl", "events.jsonl.gz", "events.jsonl.zst"}

// ResolveRun resolves path, a run directory or an events file, and reads
// the sidecars beside the events file. In a directory it looks for
// events.jsonl, events.jsonl.gz and events.jsonl.zst in ./ and then
// ./client/, failing those for one other tool's log (ForeignLogs). The
// log's format is detected from its content (Run.Format); "report.json#N"
// names benchmark N of a GuideLLM report. A missing or malformed sidecar
// is a warning; a missing events file or a log of unknown format is an
// error.
func ResolveRun(path string) (*Run, error) {
	part := -1
	st, err := os.Stat(path)
	if file, n, ok := splitPart(path); err != nil && ok {
		if fst, ferr := os.Stat(file); ferr == nil && fst.Mode().IsRegular() {
			path, part, st, err = file, n, fst, nil
		}
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no such events file: %s: %w", path, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("resolve run: %w", err)
	}
	events := ""
	if st.IsDir() {
		// The first candidate that exists but is not a regular file (a
		// FIFO, a device, a directory) is the error when no candidate is
		// a regular file: "is a named pipe" says more than "not found".
		var refused error
		for _, sub := range []string{"", "client"} {
			for _, name := range eventsNames {
				p := filepath.Join(path, sub, name)
				err := safeopen.CheckRegular(p)
				if err == nil {
					events = p
					break
				}
				if refused == nil && !errors.Is(err, fs.ErrNotExist) {
					refused = err
				}
			}
			if events != "" {
				break
			}
		}
		if events == "" && refused != nil {
			return nil, fmt.Errorf("events file %w", refused)
		}
		if events == "" {
			foreign, _, ferr := foreignLog(path)
			if ferr != nil {
				return nil, ferr
			}
			events = foreign
		}
		if events == "" {
			return nil, fmt.Errorf("no events.jsonl under %s (looked in ./ and ./client/), nor another tool's log: %w", path, fs.ErrNotExist)
		}
	} else {
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("events file %w", &safeopen.Error{Path: path, What: safeopen.Describe(st.Mode()), Err: safeopen.ErrNotRegular})
		}
		events = path
	}
	run := &Run{Dir: filepath.Dir(events), EventsPath: events, Part: part}
	switch {
	case strings.HasSuffix(events, ".gz"):
		run.Compression = "gzip"
	case strings.HasSuffix(events, ".zst"):
		run.Compression = "zstd"
	}
	if err := run.detectFormat(); err != nil {
		return nil, err
	}
	if run.Format.HasDatasetPass() {
		run.readSidecars()
	}
	return run, nil
}

// warnf records a warning, made one line (a YAML decoder's error spans
// several).
func (r *Run) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if strings.Contains(msg, "\n") {
		lines := strings.Split(msg, "\n")
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		msg = strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "" }), " ")
	}
	r.Warnings = append(r.Warnings, msg)
}
