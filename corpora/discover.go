package corpora

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// EventsNames are the events file names a run directory may hold, in
// order of preference.
var EventsNames = []string{"events.jsonl", "events.jsonl.gz", "events.jsonl.zst"}

// Discover walks roots recursively and returns the runs under them, one
// RunRef per run: roots in the given order, runs of one root sorted by Rel.
//
// A root may be a directory (itself a run or not) or an events file.
// A run is kept when include is empty or one include pattern selects its
// Rel, and no exclude pattern does (see the package doc for the pattern
// syntax); an excluded directory is not descended into. Symlinked
// directories are followed; a link back to a directory being walked is
// reported as a loop. Hidden directories (name starting with ".") are
// skipped, so caches kept inside an archive are never mistaken for runs.
//
// The errors are problems met on the way; each names its path, and none
// stops the walk. Bad patterns are reported with no runs.
func Discover(roots []string, include, exclude []string) ([]RunRef, []error) {
	inc, errs := compileGlobs("include", include)
	exc, errs2 := compileGlobs("exclude", exclude)
	if errs = append(errs, errs2...); len(errs) > 0 {
		return nil, errs
	}
	d := discoverer{include: inc, exclude: exc, readDir: os.ReadDir}
	var all []RunRef
	owner := map[string]string{} // Rel → root that claimed it
	for _, root := range roots {
		d.runs = d.runs[:0]
		d.discoverRoot(root)
		slices.SortFunc(d.runs, func(a, b RunRef) int { return strings.Compare(a.Rel, b.Rel) })
		for _, r := range d.runs {
			if first, dup := owner[r.Rel]; dup {
				d.errs = append(d.errs, fmt.Errorf("run %s: relative path %q already found under root %s (run ids would collide); skipped",
					r.Path, r.Rel, first))
				continue
			}
			owner[r.Rel] = r.Root
			all = append(all, r)
		}
	}
	return all, d.errs
}

type discoverer struct {
	include, exclude []glob
	readDir          func(string) ([]os.DirEntry, error)

	runs     []RunRef
	errs     []error
	onStack  map[string]bool // real paths of the directories being walked
	finished map[string]bool // real paths already walked under this root
}

func (d *discoverer) discoverRoot(root string) {
	d.onStack, d.finished = map[string]bool{}, map[string]bool{}
	st, err := os.Stat(root)
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("root %s: %w", root, err))
		return
	}
	if !st.IsDir() {
		if !slices.Contains(EventsNames, filepath.Base(root)) && d.keepForeignFile(root) {
			return
		}
		if !slices.Contains(EventsNames, filepath.Base(root)) {
			d.errs = append(d.errs, fmt.Errorf("root %s: not a directory, an events file (%s) or another tool's log",
				root, strings.Join(EventsNames, ", ")))
			return
		}
		abs, err := filepath.Abs(root)
		if err != nil {
			d.errs = append(d.errs, fmt.Errorf("root %s: %w", root, err))
			return
		}
		d.keep(RunRef{Root: filepath.Dir(root), Path: root, Rel: filepath.Base(filepath.Dir(abs)), EventsPath: root})
		return
	}
	d.walk(root, root, "")
}

// walk visits dir, whose slash path relative to root is rel ("" for root).
func (d *discoverer) walk(root, dir, rel string) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("resolve %s: %w", dir, err))
		return
	}
	if d.onStack[real] {
		d.errs = append(d.errs, fmt.Errorf("symlink loop: %s leads back to %s; not followed", dir, real))
		return
	}
	if d.finished[real] {
		return // reached again through another symlink; walked once already
	}
	if rel != "" && anySelects(d.exclude, rel) {
		return
	}
	entries, err := d.readDir(dir)
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("read directory %s: %w", dir, err))
		return
	}
	d.onStack[real] = true
	defer func() { delete(d.onStack, real); d.finished[real] = true }()

	events := resolveEvents(dir)
	if events != "" {
		runRel := rel
		if runRel == "" {
			abs, err := filepath.Abs(dir)
			if err != nil {
				d.errs = append(d.errs, fmt.Errorf("root %s: %w", dir, err))
				return
			}
			runRel = filepath.Base(abs)
		}
		d.keep(RunRef{Root: root, Path: dir, Rel: runRel, EventsPath: events})
	} else {
		d.keepForeign(root, dir, rel)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || (events != "" && name == "client") {
			continue
		}
		child := filepath.Join(dir, name)
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			st, err := os.Stat(child)
			if err != nil {
				d.errs = append(d.errs, fmt.Errorf("follow symlink %s: %w", child, err))
				continue
			}
			isDir = st.IsDir()
		}
		if isDir {
			d.walk(root, child, joinRel(rel, name))
		}
	}
}

func (d *discoverer) keep(r RunRef) {
	if len(d.include) > 0 && !anySelects(d.include, r.Rel) {
		return
	}
	if anySelects(d.exclude, r.Rel) {
		return
	}
	d.runs = append(d.runs, r)
}

// resolveEvents returns the events file of run directory dir, or "" when
// dir is not a run: dir/<name> before dir/client/<name>, names in
// EventsNames order, regular files (or links to them) first. Failing
// those, an events name that exists but is not a regular file (a
// directory, a dangling link) still makes dir a run, so the sweep
// records it as an error row instead of losing it.
func resolveEvents(dir string) string {
	for _, sub := range []string{"", "client"} {
		for _, name := range EventsNames {
			p := filepath.Join(dir, sub, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p
			}
		}
	}
	for _, sub := range []string{"", "client"} {
		for _, name := range EventsNames {
			p := filepath.Join(dir, sub, name)
			if _, err := os.Lstat(p); err == nil {
				return p
			}
		}
	}
	return ""
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}
