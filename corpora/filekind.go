package corpora

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/steadysweep/steadysweep/columnar"
)

// keepForeign keeps the runs of other tools' per-request logs in dir, a
// directory that is not an endpoints run (rel as in walk). The logs are
// found by content (columnar.ForeignLogs):
//
//   - a directory whose logs are all AIPerf's is one run, as
//     columnar.ResolveRun reads it (its profile_export.jsonl, else the Rust
//     port's profile_export.parquet; the opt-in profile_export_records.csv
//     holds the same records);
//   - otherwise each log is a run of its own, named by its file;
//   - each benchmark of a GuideLLM report is a run, "#N" after the file
//     (one report holds several load levels), so N is in the run id.
func (d *discoverer) keepForeign(root, dir, rel, real string, names []string, viaLink bool) {
	paths, formats := columnar.ForeignLogsAmong(dir, names)
	if len(paths) == 0 {
		return
	}
	dirRel := rel
	if dirRel == "" {
		dirRel = rootName(dir)
	}
	id := func(p string) string { return filepath.Join(real, filepath.Base(p)) }
	allAIPerf, preferred := true, ""
	for i, p := range paths {
		allAIPerf = allAIPerf && (formats[i] == columnar.FormatAIPerf || formats[i] == columnar.FormatAIPerfCSV || formats[i] == columnar.FormatAIPerfParquet)
		if filepath.Base(p) == "profile_export.jsonl" {
			preferred = p
		}
	}
	if i := slices.Index(formats, columnar.FormatAIPerfParquet); preferred == "" && i >= 0 {
		preferred = paths[i]
	}
	if allAIPerf && (len(paths) == 1 || preferred != "") {
		if preferred == "" {
			preferred = paths[0]
		}
		d.keep(RunRef{Root: root, Path: dir, Rel: dirRel, EventsPath: preferred}, id(preferred), viaLink)
		return
	}
	for i, p := range paths {
		fileRel := joinRel(rel, filepath.Base(p))
		// A report that cannot be counted still yields its first run, so
		// the sweep records why it cannot be read.
		n, named := columnar.RunParts(d.ctx, p, formats[i])
		if !named {
			d.keep(RunRef{Root: root, Path: p, Rel: fileRel, EventsPath: p}, id(p), viaLink)
			continue
		}
		for b := 0; b < n; b++ {
			part := "#" + strconv.Itoa(b)
			d.keep(RunRef{Root: root, Path: p + part, Rel: fileRel + part, EventsPath: p}, id(p), viaLink)
		}
	}
}

// keepForeignFile keeps the runs of a root that is another tool's log
// file; it reports false when the file is none.
func (d *discoverer) keepForeignFile(root string) bool {
	f, err := columnar.DetectFile(root)
	if columnar.IsEncodingRefusal(err) {
		// A UTF-16/32 log is a run whose row says why it is not read.
		f, err = "", nil
	}
	if err != nil || f == columnar.FormatEndpoints || f == columnar.FormatEndpointsLegacy {
		return false
	}
	n, named := columnar.RunParts(d.ctx, root, f)
	name := filepath.Base(root)
	real, err := realPath(filepath.Dir(root))
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("resolve %s: %w", root, err))
		return true
	}
	for b := 0; b < n; b++ {
		ref := RunRef{Root: filepath.Dir(root), Path: root, Rel: name, EventsPath: root}
		if named {
			part := "#" + strconv.Itoa(b)
			ref.Path, ref.Rel = root+part, name+part
		}
		d.keep(ref, filepath.Join(real, name), false)
	}
	return true
}
