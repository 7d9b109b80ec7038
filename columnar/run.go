package columnar

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
	Sidecars Sidecars
	// Warnings lists missing-but-expected or malformed sidecars.
	Warnings []string
}

// eventsNames are the events file names looked up in a directory, in
// order of preference.
var eventsNames = []string{"events.jsonl", "events.jsonl.gz", "events.jsonl.zst"}

// ResolveRun resolves path, a run directory or an events file, and reads
// the sidecars beside the events file. In a directory it looks for
// events.jsonl, events.jsonl.gz and events.jsonl.zst in ./ and then
// ./client/. A missing or malformed sidecar is a warning; only a missing
// events file is an error.
func ResolveRun(path string) (*Run, error) {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no such events file: %s: %w", path, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("resolve run: %w", err)
	}
	events := ""
	if st.IsDir() {
		for _, sub := range []string{"", "client"} {
			for _, name := range eventsNames {
				p := filepath.Join(path, sub, name)
				if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
					events = p
					break
				}
			}
			if events != "" {
				break
			}
		}
		if events == "" {
			return nil, fmt.Errorf("no events.jsonl under %s (looked in ./ and ./client/): %w", path, fs.ErrNotExist)
		}
	} else {
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("no such events file: %s: %w", path, fs.ErrNotExist)
		}
		events = path
	}
	run := &Run{Dir: filepath.Dir(events), EventsPath: events}
	switch {
	case strings.HasSuffix(events, ".gz"):
		run.Compression = "gzip"
	case strings.HasSuffix(events, ".zst"):
		run.Compression = "zstd"
	}
	run.readSidecars()
	return run, nil
}

func (r *Run) warnf(format string, args ...any) {
	r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
}
