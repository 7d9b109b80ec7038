package columnar

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/core"
)

// splitPart splits "report.json#2" into the file and the benchmark
// index; ok is false when path has no "#N" suffix.
func splitPart(path string) (file string, part int, ok bool) {
	i := strings.LastIndexByte(path, '#')
	if i <= 0 {
		return path, -1, false
	}
	n, err := strconv.Atoi(path[i+1:])
	if err != nil || n < 0 || strings.HasPrefix(path[i+1:], "+") {
		return path, -1, false
	}
	return path[:i], n, true
}

// foreignLogPatterns are the names a directory's non-endpoints log may
// have. Names only narrow the search: every candidate's content decides
// its format.
var foreignLogPatterns = []string{
	"profile_export*.jsonl", "profile_export*.jsonl.gz", "profile_export*.jsonl.zst",
	"*.json", "*.json.gz", "*.json.zst", "*.yaml", "*.yml",
	"*.csv", "*.csv.gz", "*.csv.zst", "*.jsonl", "*.jsonl.gz", "*.jsonl.zst", "*.parquet",
}

// notLog reports whether name is a file of a run directory known not to
// be a per-request log (endpoints sidecars, AIPerf summaries, our own
// outputs), never sniffed. A switch, not a map built at start-up.
func notLog(name string) bool {
	switch name {
	case "config.yaml", "run_meta.json", "sample_idx_map.json", "result_summary.json",
		"final_snapshot.json", "steady_state.json", "profile_export_aiperf.json",
		"profile_export_aiperf_steady_state.json":
		return true
	}
	return false
}

// ForeignLogs returns the per-request logs in dir that are not endpoints
// events files, with their formats: AIPerf profile_export*.jsonl,
// GuideLLM reports, vLLM results, chosen by content among the names of
// foreignLogPatterns. Files whose content is no log are left out.
func ForeignLogs(dir string) (paths []string, formats []contract.Format) {
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if !IsForeignLogName(e.Name()) {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && st.Mode().IsRegular() {
			names = append(names, e.Name())
		}
	}
	paths, formats = ForeignLogsAmong(dir, names)
	for i := len(paths) - 1; i >= 0; i-- {
		if formats[i] == "" {
			paths, formats = slices.Delete(paths, i, i+1), slices.Delete(formats, i, i+1)
		}
	}
	return paths, formats
}

// IsForeignLogName reports whether a file of this name may be another
// tool's per-request log (its content then decides): discovery opens no
// other file of a directory.
func IsForeignLogName(name string) bool {
	if notLog(name) || strings.HasPrefix(name, ".") {
		return false
	}
	for _, pat := range foreignLogPatterns {
		if ok, _ := filepath.Match(pat, name); ok {
			return true
		}
	}
	return false
}

// ForeignLogsAmong is ForeignLogs over names, the regular files of dir
// the caller listed (names IsForeignLogName accepts; others are ignored):
// each is opened once for its first bytes (DetectFile). A file detection
// could not decide within its bound, or a UTF-16/32 one (EncodingError),
// is listed with format "": it may be a log, and its run's row says why
// it was not read.
func ForeignLogsAmong(dir string, names []string) (paths []string, formats []contract.Format) {
	seen := map[string]bool{}
	for _, pat := range foreignLogPatterns {
		var matches []string
		for _, name := range names {
			if ok, _ := filepath.Match(pat, name); ok && !seen[name] && IsForeignLogName(name) {
				matches = append(matches, name)
			}
		}
		slices.Sort(matches)
		for _, name := range matches {
			seen[name] = true
			p := filepath.Join(dir, name)
			f, err := DetectFile(p)
			if keepsRun(err) {
				paths, formats = append(paths, p), append(formats, "")
				continue
			}
			if err != nil || f == contract.FormatEndpoints || f == contract.FormatEndpointsLegacy {
				continue
			}
			paths, formats = append(paths, p), append(formats, f)
		}
	}
	return paths, formats
}

// foreignLog picks the one per-request log of a directory without an
// events file. AIPerf writes more than one profile_export*.jsonl in some
// versions; profile_export.jsonl is preferred. Several reports in one
// directory are several runs: the error lists them.
func foreignLog(dir string) (string, contract.Format, error) {
	paths, formats := ForeignLogs(dir)
	switch len(paths) {
	case 0:
		return "", "", undecidedLog(dir)
	case 1:
		return paths[0], formats[0], nil
	}
	for i, p := range paths {
		if filepath.Base(p) == "profile_export.jsonl" && formats[i] == contract.FormatAIPerf {
			return p, formats[i], nil
		}
	}
	// Without the JSONL, AIPerf's Parquet and records CSV are one run, read
	// from the Parquet, which keeps the values exactly (the CSV writes
	// %.6g).
	aiperfOnly := !slices.ContainsFunc(formats, func(f contract.Format) bool {
		return f != contract.FormatAIPerfParquet && f != contract.FormatAIPerfCSV && f != contract.FormatAIPerf
	})
	if i := slices.Index(formats, contract.FormatAIPerfParquet); i >= 0 && aiperfOnly {
		return paths[i], formats[i], nil
	}
	return "", "", &severalRuns{fmt.Sprintf("%s holds %d benchmark logs (%s): each is a run; pass one of them", dir, len(paths), strings.Join(paths, ", "))}
}

// detectFormat sets r.Format from the events file's content. A file
// named as an endpoints events log whose content shows no format (empty,
// or garbage the decoder reports line by line) is read as endpoints.
// Counting a file's runs (a walk of the whole file) observes ctx.
func detectFormat(ctx context.Context, r *contract.Run) error {
	f, err := detectFileOnce(r.EventsPath)
	var unknown *UnknownFormatError
	if errors.As(err, &unknown) && slices.Contains(eventsNames, filepath.Base(r.EventsPath)) {
		f, err = contract.FormatEndpoints, nil
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("no such events file: %s: %w", r.EventsPath, err)
		}
		return err
	}
	r.Format = f
	if r.Part >= 0 && f != contract.FormatGuideLLM && !contract.ResultsFormat(f) {
		return fmt.Errorf("%s#%d: only GuideLLM reports and appended vLLM/SGLang results hold several runs; %s is %s", r.EventsPath, r.Part, r.EventsPath, f)
	}
	if contract.ResultsFormat(f) {
		n, _ := foreign.CountResults(ctx, r.EventsPath)
		if err := ctx.Err(); err != nil {
			return err
		}
		switch {
		case r.Part < 0 && n > 1:
			return &severalRuns{fmt.Sprintf("%s holds %d %s results (appended runs, one a line): pass %s#0 … %s#%d, or sweep its directory",
				r.EventsPath, n, f, r.EventsPath, r.EventsPath, n-1)}
		case r.Part >= max(n, 1):
			return fmt.Errorf("%s#%d: the file holds %d %s result(s)", r.EventsPath, r.Part, n, f)
		}
	}
	if f == contract.FormatGuideLLM && r.Part < 0 {
		// A report cut short counts the benchmarks it holds; the reader
		// reports the cut.
		n, _ := foreign.GuideLLMBenchmarks(ctx, r.EventsPath)
		if err := ctx.Err(); err != nil {
			return err
		}
		if n > 1 {
			return &severalRuns{fmt.Sprintf("%s holds %d GuideLLM benchmarks (one per load level): pass %s#0 … %s#%d, or sweep its directory",
				r.EventsPath, n, r.EventsPath, r.EventsPath, n-1)}
		}
		r.Part = 0
	}
	if !f.HasDatasetPass() {
		r.Info = core.RunInfo{Streaming: true}
	}
	return nil
}

// ErrSeveralRuns marks a path that holds several runs (a GuideLLM
// report's benchmarks, appended vLLM/SGLang results, a directory of
// benchmark logs): the error's message names the ones to pass
// (errors.Is; cmd adds no contrary hint to it).
var ErrSeveralRuns = errors.New("the path holds several runs")

// severalRuns is an error saying which of several runs to pass; it is
// ErrSeveralRuns (errors.Is) with its own message.
type severalRuns struct{ msg string }

func (e *severalRuns) Error() string        { return e.msg }
func (e *severalRuns) Is(target error) bool { return target == ErrSeveralRuns }
