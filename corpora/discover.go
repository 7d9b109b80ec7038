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
// Rel, and no exclude pattern does (see glob for the pattern syntax); an
// excluded directory is not descended into. Symlinked directories are
// followed; a link back to a directory being walked is reported as a
// loop. A run is found once by its real path (links and relative roots
// resolved): reached again, through a link or another root, it is skipped,
// and the path without links wins within a root. Hidden directories (name
// starting with ".") are skipped, so caches kept inside an archive are
// never mistaken for runs.
//
// The errors are problems met on the way; each names its path, and none
// stops the walk. Bad patterns are reported with no runs. DiscoverAll
// also says what the patterns did.
func Discover(roots []string, include, exclude []string) ([]RunRef, []error) {
	d := DiscoverAll(roots, include, exclude)
	return d.Runs, d.Problems
}

// Discovery is the outcome of DiscoverAll.
type Discovery struct {
	// Runs and Problems are Discover's results.
	Runs     []RunRef
	Problems []error
	// Unmatched lists the patterns that matched nothing, as
	// "--include PATTERN" or "--exclude PATTERN": an include that selected
	// no run, an exclude that removed no run or directory.
	Unmatched []string
	// Filtered is the number of runs found but removed by the patterns
	// (an excluded directory that is a run counts), Pruned the number of
	// excluded directories, not searched (they may hold more runs).
	Filtered, Pruned int
}

// FilterSummary explains an empty result caused by the patterns ("" when
// they removed nothing): "the --include/--exclude patterns removed 12
// run(s) and skipped 2 excluded director(ies) unsearched".
func (d *Discovery) FilterSummary() string {
	if d.Filtered == 0 && d.Pruned == 0 {
		return ""
	}
	s := fmt.Sprintf("the --include/--exclude patterns removed %d run(s)", d.Filtered)
	if d.Pruned > 0 {
		s += fmt.Sprintf(" and skipped %d excluded director(ies) unsearched", d.Pruned)
	}
	return s
}

// DiscoverAll is Discover, with what the include and exclude patterns did.
func DiscoverAll(roots []string, include, exclude []string) Discovery {
	inc, errs := compileGlobs("include", include)
	exc, errs2 := compileGlobs("exclude", exclude)
	if errs = append(errs, errs2...); len(errs) > 0 {
		return Discovery{Problems: errs}
	}
	d := discoverer{include: inc, exclude: exc, readDir: os.ReadDir,
		incHit: make([]bool, len(inc)), excHit: make([]bool, len(exc)),
		finished: map[string]string{}, seen: map[string]RunRef{}}
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
	out := Discovery{Runs: all, Problems: d.errs, Filtered: d.filtered, Pruned: d.pruned}
	for i, g := range inc {
		if !d.incHit[i] {
			out.Unmatched = append(out.Unmatched, "--include "+g.text)
		}
	}
	for i, g := range exc {
		if !d.excHit[i] {
			out.Unmatched = append(out.Unmatched, "--exclude "+g.text)
		}
	}
	return out
}

type discoverer struct {
	include, exclude []glob
	readDir          func(string) ([]os.DirEntry, error)

	runs     []RunRef
	errs     []error
	onStack  map[string]bool   // real paths of the directories being walked
	finished map[string]string // real path already walked → its root
	seen     map[string]RunRef // runIdentity → the run kept

	incHit, excHit   []bool // which patterns selected something
	filtered, pruned int
}

// runIdentity is what makes two RunRefs the same run: the events file
// under its directory's real path, plus the part of Path after it (a
// GuideLLM report's "#N"). A run directory reached through a link or
// another root, or as its events file, has one identity.
func runIdentity(r RunRef) (string, error) {
	dir, err := realPath(filepath.Dir(r.EventsPath))
	if err != nil {
		return "", err
	}
	id := filepath.Join(dir, filepath.Base(r.EventsPath))
	if part, ok := strings.CutPrefix(r.Path, r.EventsPath); ok {
		id += part
	}
	return id, nil
}

// realPath is path with every link resolved, absolute: the identity of a
// directory however it is reached.
func realPath(path string) (string, error) {
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	return filepath.Abs(p)
}

func (d *discoverer) discoverRoot(root string) {
	d.onStack = map[string]bool{}
	if d.finished == nil {
		d.finished, d.seen = map[string]string{}, map[string]RunRef{}
	}
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
	real, err := realPath(dir)
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("resolve %s: %w", dir, err))
		return
	}
	if d.onStack[real] {
		d.errs = append(d.errs, fmt.Errorf("symlink loop: %s leads back to %s; not followed", dir, real))
		return
	}
	if first, done := d.finished[real]; done {
		// Reached again through a link or another root: walked once already.
		if rel == "" {
			d.errs = append(d.errs, fmt.Errorf("root %s is %s, already searched under root %s; skipped", root, real, first))
		}
		return
	}
	if rel != "" && selecting(d.exclude, rel, d.excHit) {
		d.pruned++
		if resolveEvents(dir) != "" {
			d.filtered++ // the directory is a run itself
		}
		return
	}
	entries, err := d.readDir(dir)
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("read directory %s: %w", dir, err))
		return
	}
	d.onStack[real] = true
	defer func() { delete(d.onStack, real); d.finished[real] = root }()

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
	// Directories first, links after: a run reachable both ways is found
	// by its path without links, whose run id survives the link's removal.
	var links []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || (events != "" && name == "client") {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			links = append(links, name)
			continue
		}
		if e.IsDir() {
			d.walk(root, filepath.Join(dir, name), joinRel(rel, name))
		}
	}
	for _, name := range links {
		child := filepath.Join(dir, name)
		st, err := os.Stat(child)
		if err != nil {
			d.errs = append(d.errs, fmt.Errorf("follow symlink %s: %w", child, err))
			continue
		}
		if st.IsDir() {
			d.walk(root, child, joinRel(rel, name))
		}
	}
}

// keep adds r, found at a path that may hold links, unless filtered out
// or already found.
func (d *discoverer) keep(r RunRef) {
	real, err := runIdentity(r)
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("resolve %s: %w", r.Path, err))
		return
	}
	inc := len(d.include) == 0 || selecting(d.include, r.Rel, d.incHit)
	exc := selecting(d.exclude, r.Rel, d.excHit)
	if !inc || exc {
		d.filtered++
		return
	}
	if first, dup := d.seen[real]; dup {
		if first.Root != r.Root {
			d.errs = append(d.errs, fmt.Errorf("run %s is %s, already found under root %s as %q; skipped", r.Path, filepath.Dir(real), first.Root, first.Rel))
		}
		return
	}
	d.seen[real] = r
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
