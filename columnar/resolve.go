package columnar

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/internal/safeopen"
)

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
// error. ctx ends the long parts (a report's benchmark count, a 1 GiB
// sample_idx_map.json) within a window of the file: the error is then
// ctx's and no run is returned.
func ResolveRun(ctx context.Context, path string) (*contract.Run, error) {
	return ResolveRunMemo(ctx, path, nil)
}

// ResolveRunMemo is ResolveRun taking config.yaml's reading from memo
// when it holds the file's bytes (sidecar.ReadSidecarsMemo; nil: parsed,
// as ResolveRun does). Cache.ConfigMemo is the cache's.
func ResolveRunMemo(ctx context.Context, path string, memo sidecar.ConfigMemo) (*contract.Run, error) {
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
	run := &contract.Run{Dir: filepath.Dir(events), EventsPath: events, Part: part}
	switch {
	case strings.HasSuffix(events, ".gz"):
		run.Compression = "gzip"
	case strings.HasSuffix(events, ".zst"):
		run.Compression = "zstd"
	}
	if err := detectFormat(ctx, run); err != nil {
		return nil, err
	}
	if run.Format.HasDatasetPass() {
		var warnings []string
		run.Info, run.Sidecars, warnings = sidecar.ReadSidecarsMemo(ctx, run.Dir, run.Info, memo)
		run.Warnings = append(run.Warnings, warnings...)
	}
	if err := ctx.Err(); err != nil {
		return nil, err // a sidecar cut short is no sidecar: no run
	}
	return run, nil
}
