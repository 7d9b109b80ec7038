package corpora

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/steadysweep/steadysweep/columnar"
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
// followed when they resolve inside one of the roots (DiscoverOptions.
// FollowLinks follows every link); a link back to a directory being
// walked is reported as a loop. A run is found once by its real path
// (links and relative roots resolved): reached again, through a link or
// another root, it is skipped, and the path without links wins within a
// root. Hidden directories (name starting with ".") are skipped, so
// caches kept inside an archive are never mistaken for runs.
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
	// Unreadable lists the directories that could not be listed (their
	// runs, if any, are unknown); Outside the links not followed because
	// they lead out of the roots. Both are also in Problems.
	Unreadable, Outside []string
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

// DiscoverOptions are DiscoverWith's settings.
type DiscoverOptions struct {
	// Include and Exclude are the run patterns (glob).
	Include, Exclude []string
	// FollowLinks follows symbolic links wherever they lead; by default a
	// link is followed only when it resolves inside one of the roots, so
	// an archive holding a link to / is not a walk of the machine.
	FollowLinks bool
	// Jobs is how many directories are read at once (0: a few per core).
	Jobs int

	readDir func(string) ([]fs.DirEntry, error) // tests
}

// DiscoverAll is Discover, with what the include and exclude patterns did.
func DiscoverAll(roots []string, include, exclude []string) Discovery {
	d, _ := DiscoverWith(context.Background(), roots, DiscoverOptions{Include: include, Exclude: exclude})
	return d
}

// DiscoverWith is DiscoverAll with options, stopping at the next directory
// once ctx is cancelled (the error is then ctx's, and the runs found so
// far are not returned).
//
// The walk reads each directory once (its entries' types come with the
// listing), opens no file whose name cannot be a run's log (only
// candidates of columnar.IsForeignLogName, for their first bytes), stats
// only links, and reads several directories at once.
func DiscoverWith(ctx context.Context, roots []string, o DiscoverOptions) (Discovery, error) {
	inc, errs := compileGlobs("include", o.Include)
	exc, errs2 := compileGlobs("exclude", o.Exclude)
	if errs = append(errs, errs2...); len(errs) > 0 {
		return Discovery{Problems: errs}, nil
	}
	if o.readDir == nil {
		o.readDir = os.ReadDir
	}
	if o.Jobs <= 0 {
		o.Jobs = 4 * runtime.GOMAXPROCS(0)
	}
	d := discoverer{ctx: ctx, opts: o, include: inc, exclude: exc,
		incHit: make([]bool, len(inc)), excHit: make([]bool, len(exc)),
		seen: map[string]RunRef{}, filtered: map[string]bool{}, pruned: map[string]bool{}}
	for _, root := range roots {
		if real, err := realPath(root); err == nil {
			d.rootReals = append(d.rootReals, real)
		}
	}
	var all []RunRef
	owner := map[string]string{} // Rel → root that claimed it
	for _, root := range roots {
		runs := d.discoverRoot(root)
		if err := ctx.Err(); err != nil {
			return Discovery{}, err
		}
		for _, r := range runs {
			if first, dup := owner[r.Rel]; dup {
				d.errs = append(d.errs, fmt.Errorf("run %s: relative path %q already found under root %s (run ids would collide); skipped",
					r.Path, r.Rel, first))
				continue
			}
			owner[r.Rel] = r.Root
			all = append(all, r)
		}
	}
	out := Discovery{Runs: all, Problems: d.errs, Filtered: len(d.filtered), Pruned: len(d.pruned),
		Unreadable: d.unreadable, Outside: d.outside}
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
	return out, nil
}

type discoverer struct {
	ctx              context.Context
	opts             DiscoverOptions
	include, exclude []glob
	rootReals        []string // the roots' real paths: where links may lead

	errs       []error
	unreadable []string
	outside    []string
	seen       map[string]RunRef // run identity → the run kept (across roots)
	searched   []rootDone        // directory roots walked so far

	mu             sync.Mutex // guards the fields below during a root's walk
	found          []candidate
	walkErrs       []error
	linked         map[string]bool // real paths walked through a link
	incHit, excHit []bool          // which patterns selected something
	filtered       map[string]bool // identities of the runs the patterns removed
	pruned         map[string]bool // real paths of the excluded directories
}

type rootDone struct{ root, real string }

// candidate is a run met during a root's walk: its identity (the events
// file under its directory's real path, plus a GuideLLM "#N") and
// whether the path to it went through a link.
type candidate struct {
	ref     RunRef
	id      string
	viaLink bool
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

// within reports whether path is dir or below it (both clean, absolute).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir) && (strings.HasSuffix(dir, string(filepath.Separator)) || path[len(dir)] == filepath.Separator)
}

// discoverRoot walks one root and returns its runs, sorted by Rel, not
// yet found under an earlier root.
func (d *discoverer) discoverRoot(root string) []RunRef {
	d.found, d.walkErrs, d.linked = nil, nil, map[string]bool{}
	st, err := os.Stat(root)
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("root %s: %w", root, err))
		return nil
	}
	if !st.IsDir() {
		d.fileRoot(root)
	} else if real, err := realPath(root); err != nil {
		d.errs = append(d.errs, fmt.Errorf("resolve %s: %w", root, err))
		return nil
	} else if i := slices.IndexFunc(d.searched, func(s rootDone) bool { return within(real, s.real) }); i >= 0 {
		d.errs = append(d.errs, fmt.Errorf("root %s is %s, already searched under root %s; skipped", root, real, d.searched[i].root))
		return nil
	} else {
		d.searched = append(d.searched, rootDone{root, real})
		var wg sync.WaitGroup
		sem := make(chan struct{}, d.opts.Jobs)
		d.walk(&walkCtx{root: root, wg: &wg, sem: sem}, root, "", real, nil)
		wg.Wait()
	}
	// Problems in path order, whatever order the walkers met them.
	slices.SortStableFunc(d.walkErrs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	d.errs = append(d.errs, d.walkErrs...)
	// One run per identity: the path without links first, then the
	// shortest Rel, then the first in Rel order.
	slices.SortFunc(d.found, func(a, b candidate) int {
		return cmp.Or(strings.Compare(a.id, b.id), boolCmp(a.viaLink, b.viaLink),
			cmp.Compare(len(a.ref.Rel), len(b.ref.Rel)), strings.Compare(a.ref.Rel, b.ref.Rel))
	})
	var runs []RunRef
	for i, c := range d.found {
		if i > 0 && d.found[i-1].id == c.id {
			continue
		}
		if first, dup := d.seen[c.id]; dup {
			if first.Root != c.ref.Root {
				d.errs = append(d.errs, fmt.Errorf("run %s is %s, already found under root %s as %q; skipped",
					c.ref.Path, strings.TrimSuffix(filepath.Dir(c.id), "/client"), first.Root, first.Rel))
			}
			continue
		}
		d.seen[c.id] = c.ref
		runs = append(runs, c.ref)
	}
	slices.SortFunc(runs, func(a, b RunRef) int { return strings.Compare(a.Rel, b.Rel) })
	return runs
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// fileRoot keeps the run of a root that is a file: an events file, or
// another tool's log.
func (d *discoverer) fileRoot(root string) {
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
	real, err := realPath(filepath.Dir(root))
	if err != nil {
		d.errs = append(d.errs, fmt.Errorf("resolve %s: %w", root, err))
		return
	}
	d.keep(RunRef{Root: filepath.Dir(root), Path: root, Rel: filepath.Base(filepath.Dir(abs)), EventsPath: root},
		filepath.Join(real, filepath.Base(root)), false)
}

// walkCtx is one root's walk.
type walkCtx struct {
	root string
	wg   *sync.WaitGroup
	sem  chan struct{} // a slot per directory read on another goroutine
}

// hop is a link followed on the way to a directory: the walk went from
// the directory of real path from to target. The chain of hops says
// which directories are on the current path, for loop detection.
type hop struct {
	start, end string // the real path the segment started at, the one it left from
	prev       *hop
}

// onPath reports whether real is a directory on the path the walk took to
// a directory of real path cur (through the hops of chain).
func onPath(real, cur string, chain *hop) bool {
	for end := cur; ; {
		start := ""
		if chain != nil {
			start = chain.start
		}
		if within(end, real) && (start == "" || within(real, start)) {
			return true
		}
		if chain == nil {
			return false
		}
		end, chain = chain.end, chain.prev
	}
}

func (d *discoverer) problem(err error) {
	d.mu.Lock()
	d.walkErrs = append(d.walkErrs, err)
	d.mu.Unlock()
}

// walk visits dir, whose slash path relative to the root is rel ("" for
// the root) and whose real path is real; chain holds the links followed
// to reach it (nil: none).
func (d *discoverer) walk(w *walkCtx, dir, rel, real string, chain *hop) {
	if d.ctx.Err() != nil {
		return
	}
	entries, err := d.opts.readDir(dir)
	if err != nil {
		d.mu.Lock()
		d.unreadable = append(d.unreadable, dir)
		d.mu.Unlock()
		d.problem(fmt.Errorf("read directory %s: %w (its runs, if any, are not swept)", dir, err))
		return
	}
	events := d.resolveEvents(dir, real, entries)
	if rel != "" && d.excluded(rel) {
		d.mu.Lock()
		d.pruned[real] = true
		if events != "" { // the directory is a run itself
			d.filtered[eventsID(dir, real, events)] = true
		}
		d.mu.Unlock()
		return
	}
	var names []string // candidate logs of other tools, when dir is no run
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || (events != "" && name == "client") {
			continue
		}
		switch t := e.Type(); {
		case t.IsDir():
			d.descend(w, filepath.Join(dir, name), joinRel(rel, name), real+string(filepath.Separator)+name, chain)
		case t&fs.ModeSymlink != 0:
			d.followLink(w, dir, name, rel, real, chain, events == "", &names)
		case t.IsRegular() && events == "" && columnar.IsForeignLogName(name):
			names = append(names, name)
		}
	}
	if events != "" {
		runRel := rel
		if runRel == "" {
			runRel = rootName(dir)
		}
		d.keep(RunRef{Root: w.root, Path: dir, Rel: runRel, EventsPath: events}, eventsID(dir, real, events), chain != nil)
	} else if len(names) > 0 {
		d.keepForeign(w.root, dir, rel, real, names, chain != nil)
	}
}

// descend walks a subdirectory, on another goroutine when a slot is free.
func (d *discoverer) descend(w *walkCtx, dir, rel, real string, chain *hop) {
	select {
	case w.sem <- struct{}{}:
		w.wg.Add(1)
		go func() {
			defer func() { <-w.sem; w.wg.Done() }()
			d.walk(w, dir, rel, real, chain)
		}()
	default:
		d.walk(w, dir, rel, real, chain)
	}
}

// followLink handles the link name in dir: a directory it leads to is
// walked (once per walk, and only inside the roots unless FollowLinks),
// a regular file it leads to is a candidate log (names) when logs is set.
func (d *discoverer) followLink(w *walkCtx, dir, name, rel, real string, chain *hop, logs bool, names *[]string) {
	child := filepath.Join(dir, name)
	target, err := realPath(child)
	if err != nil {
		d.problem(fmt.Errorf("follow symlink %s: %w", child, err))
		return
	}
	st, err := os.Stat(target)
	if err != nil {
		d.problem(fmt.Errorf("follow symlink %s: %w", child, err))
		return
	}
	isDir := st.IsDir()
	if !isDir && !(logs && st.Mode().IsRegular() && columnar.IsForeignLogName(name)) {
		return
	}
	if !d.opts.FollowLinks && !slices.ContainsFunc(d.rootReals, func(r string) bool { return within(target, r) }) {
		if d.nameOutside(child) { // an events link is named by leadsOutside already
			d.problem(fmt.Errorf("symlink %s leads to %s, outside the searched roots; not followed (--follow-links follows it)", child, target))
		}
		return
	}
	if !isDir {
		*names = append(*names, name)
		return
	}
	if onPath(target, real, chain) {
		d.problem(fmt.Errorf("symlink loop: %s leads back to %s; not followed", child, target))
		return
	}
	d.mu.Lock()
	done := d.linked[target]
	d.linked[target] = true
	d.mu.Unlock()
	if done {
		return // walked through another link already
	}
	d.descend(w, child, joinRel(rel, name), target, &hop{start: target, end: real, prev: chain})
}

// eventsID is the identity of the run of directory dir (real path real)
// whose events file is events.
func eventsID(dir, real, events string) string {
	return real + string(filepath.Separator) + strings.TrimPrefix(events, dir+string(filepath.Separator))
}

// rootName is the Rel of a root that is itself a run: its base name.
func rootName(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return filepath.Base(abs)
	}
	return filepath.Base(dir)
}

// excluded reports whether an exclude pattern selects the directory rel.
func (d *discoverer) excluded(rel string) bool {
	if len(d.exclude) == 0 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return selecting(d.exclude, rel, d.excHit)
}

// keep records run r of identity id (found through a link when viaLink),
// unless filtered out.
func (d *discoverer) keep(r RunRef, id string, viaLink bool) {
	if part, ok := strings.CutPrefix(r.Path, r.EventsPath); ok {
		id += part
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	inc := len(d.include) == 0 || selecting(d.include, r.Rel, d.incHit)
	exc := selecting(d.exclude, r.Rel, d.excHit)
	if !inc || exc {
		d.filtered[id] = true // once, however many paths reach it
		return
	}
	d.found = append(d.found, candidate{ref: r, id: id, viaLink: viaLink})
}

// resolveEvents returns the events file of run directory dir (real path
// real, listed as entries), or "" when dir is not a run: dir/<name>
// before dir/client/<name>, names in EventsNames order, regular files
// (or links to them) first. Failing those, an events name that exists
// but is not a regular file (a directory, a dangling link) still makes
// dir a run, so the sweep records it as an error row instead of losing
// it. Only a client/ subdirectory is read besides dir.
func (d *discoverer) resolveEvents(dir, real string, entries []fs.DirEntry) string {
	if p, other := d.eventsIn(dir, entries, false); p != "" {
		return p
	} else if i := slices.IndexFunc(entries, func(e fs.DirEntry) bool { return e.Name() == "client" }); i >= 0 &&
		(entries[i].IsDir() || entries[i].Type()&fs.ModeSymlink != 0) {
		client := filepath.Join(dir, "client")
		sub, err := d.opts.readDir(client)
		if err == nil {
			if p, otherClient := d.eventsIn(client, sub, entries[i].Type()&fs.ModeSymlink != 0); p != "" {
				return p
			} else if other != "" {
				return other
			} else {
				return otherClient
			}
		}
		return other
	} else {
		return other
	}
}

// eventsIn returns the first regular events file among entries of dir
// (links resolved), else the first events name that is something else.
// An events file that is a link, or in a dir reached through a link
// (linked: a client/ link), is skipped when it leads outside the roots
// (leadsOutside).
func (d *discoverer) eventsIn(dir string, entries []fs.DirEntry, linked bool) (regular, other string) {
	for _, name := range EventsNames {
		i := slices.IndexFunc(entries, func(e fs.DirEntry) bool { return e.Name() == name })
		if i < 0 {
			continue
		}
		p := filepath.Join(dir, name)
		t := entries[i].Type()
		if (linked || t&fs.ModeSymlink != 0) && d.leadsOutside(p, !linked) {
			continue
		}
		if t.IsRegular() {
			return p, ""
		}
		if t&fs.ModeSymlink != 0 {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, ""
			}
		}
		if other == "" {
			other = p
		}
	}
	return "", other
}

// leadsOutside reports whether the events file p, reached through a
// link, resolves outside every root while links are not followed out
// (FollowLinks false): a run inside the archive whose log is elsewhere
// (a planted events.jsonl → /home/other/secret.jsonl) is not read. The
// link is listed in Outside and named as a problem, as a directory link
// is (followLink), when name is set (the file itself is the link; a
// linked client/ directory is named by followLink). A link that does not
// resolve is left to the caller.
func (d *discoverer) leadsOutside(p string, name bool) bool {
	if d.opts.FollowLinks {
		return false
	}
	target, err := realPath(p)
	if err != nil || slices.ContainsFunc(d.rootReals, func(r string) bool { return within(target, r) }) {
		return false
	}
	if name && d.nameOutside(p) {
		d.problem(fmt.Errorf("events file %s leads to %s, outside the searched roots; not read (--follow-links reads it)", p, target))
	}
	return true
}

// nameOutside adds the link p to Outside, once: it reports whether p was
// new.
func (d *discoverer) nameOutside(p string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if slices.Contains(d.outside, p) {
		return false
	}
	d.outside = append(d.outside, p)
	return true
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}
