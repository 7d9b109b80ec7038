package corpora

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// tree creates files (slash paths relative to dir, content "x").
func tree(t testing.TB, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rels(runs []RunRef) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.Rel)
	}
	return out
}

func archive(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	tree(t, dir,
		"a/events.jsonl",
		"b/client/events.jsonl.gz", "b/client/config.yaml",
		"c/events.jsonl", "c/client/events.jsonl",
		"c/audit/x/events.jsonl.zst",
		"d/notes.txt",
		"a-z/events.jsonl",
		".cache/r/events.jsonl",
	)
	if err := os.Symlink("..", filepath.Join(dir, "d", "up")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "a"), filepath.Join(dir, "f")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDiscover(t *testing.T) {
	dir := archive(t)
	runs, errs := Discover([]string{dir}, nil, nil)
	want := []string{"a", "a-z", "b", "c", "c/audit/x"}
	if got := rels(runs); !slices.Equal(got, want) {
		t.Fatalf("runs: got %q, want %q", got, want)
	}
	byRel := map[string]RunRef{}
	for _, r := range runs {
		byRel[r.Rel] = r
	}
	if got := byRel["b"].EventsPath; got != filepath.Join(dir, "b", "client", "events.jsonl.gz") {
		t.Errorf("b events: got %s", got)
	}
	if got := byRel["c"].EventsPath; got != filepath.Join(dir, "c", "events.jsonl") {
		t.Errorf("c events (root wins over client/): got %s", got)
	}
	if got := byRel["c/audit/x"].Path; got != filepath.Join(dir, "c", "audit", "x") {
		t.Errorf("nested run path: got %s", got)
	}
	// d/up → .. is a loop back to the root: reported, not fatal. f → a is
	// the same directory as a, walked once.
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "symlink loop") {
		t.Fatalf("errors: got %v, want one symlink loop", errs)
	}
	if byRel["a"].RunID() == byRel["b"].RunID() || len(byRel["a"].RunID()) != 16 {
		t.Errorf("run ids: a=%s b=%s", byRel["a"].RunID(), byRel["b"].RunID())
	}
}

func TestDiscoverPatterns(t *testing.T) {
	dir := archive(t)
	for _, tc := range []struct {
		name             string
		include, exclude []string
		want             []string
	}{
		{"include subtree", []string{"c"}, nil, []string{"c", "c/audit/x"}},
		{"include doublestar", []string{"**/x"}, nil, []string{"c/audit/x"}},
		// Without a "/", a pattern matches a segment at any depth.
		{"include star", []string{"a*"}, nil, []string{"a", "a-z", "c/audit/x"}},
		{"include anchored", []string{"a*/**"}, nil, []string{"a", "a-z"}},
		{"include basename", []string{"*udi*"}, nil, []string{"c/audit/x"}},
		{"exclude prunes", nil, []string{"c/audit"}, []string{"a", "a-z", "b", "c"}},
		{"exclude glob", nil, []string{"a?z", "b"}, []string{"a", "c", "c/audit/x"}},
		{"both", []string{"c/**"}, []string{"**/audit/*"}, []string{"c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, _ := Discover([]string{dir}, tc.include, tc.exclude)
			if got := rels(runs); !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, errs := Discover([]string{dir}, []string{"[a-"}, nil); len(errs) != 1 {
		t.Fatalf("bad pattern: got errors %v, want 1", errs)
	}
}

// TestGlobIssue20: issue 20's filters — "*" within a segment did not reach
// parity/conc_dup_malformed, and "**" patterns were exponential.
func TestGlobIssue20(t *testing.T) {
	for _, tc := range []struct {
		pattern, rel string
		want         bool
	}{
		{"*malformed*", "parity/conc_dup_malformed", true},
		{"conc_*", "parity/conc_dup_malformed", true},
		{"conc_*", "parity/conc_dup_malformed/client", true}, // an ancestor selects
		{"parity/conc_*", "parity/conc_dup_malformed", true},
		{"conc_*", "parity/offline_burst", false},
		{"parity/*", "archive/parity/x", false}, // with a "/": anchored at the root
		{"**/parity/*", "archive/parity/x", true},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		{"a/*/b", "a/x/y/b", false},
		{"**", "anything/at/all", true},
		{"[a-c]?/d", "b1/d", true},
	} {
		g, err := compileGlob(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.selects(tc.rel); got != tc.want {
			t.Errorf("%q selects %q = %v, want %v", tc.pattern, tc.rel, got, tc.want)
		}
	}
	// 30 "**" against 60 segments that never match the last one: the old
	// recursive matcher tried C(90, 30) ways.
	pattern := strings.Repeat("**/a/", 30) + "b"
	rel := strings.Repeat("a/", 59) + "c"
	g, err := compileGlob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool, 1)
	go func() { done <- g.selects(rel) }()
	select {
	case got := <-done:
		if got {
			t.Errorf("%q selects %q", pattern, rel)
		}
	case <-time.After(3 * time.Minute): // a hang guard: backtracking takes for ever, a load only slows it
		t.Fatal("a pattern of 30 ** did not match within 3 minutes")
	}
}

// TestDiscoverUnmatchedPatterns: every pattern that matched nothing is
// named, and an empty result says the patterns removed the runs.
func TestDiscoverUnmatchedPatterns(t *testing.T) {
	dir := archive(t)
	d := DiscoverAll([]string{dir}, []string{"zz*", "a"}, []string{"*audit*", "nothing/here", "b"})
	if got := rels(d.Runs); !slices.Equal(got, []string{"a"}) {
		t.Errorf("runs %q", got)
	}
	if want := []string{"--include zz*", "--exclude nothing/here"}; !slices.Equal(d.Unmatched, want) {
		t.Errorf("unmatched %q, want %q", d.Unmatched, want)
	}
	d = DiscoverAll([]string{dir}, []string{"conc_*"}, nil)
	if len(d.Runs) != 0 || d.Filtered != 5 || d.FilterSummary() != "the --include/--exclude patterns removed 5 run(s)" {
		t.Errorf("include matching nothing: %d runs, %d filtered, %q", len(d.Runs), d.Filtered, d.FilterSummary())
	}
	// a, a-z and c are excluded directories that are runs; c/audit/x is
	// inside c, never searched.
	d = DiscoverAll([]string{dir}, nil, []string{"c", "a*"})
	if d.Pruned != 3 || d.Filtered != 3 || d.FilterSummary() != "the --include/--exclude patterns removed 3 run(s) and skipped 3 excluded director(ies) unsearched" {
		t.Errorf("excluding runs: %d pruned, %d filtered: %q", d.Pruned, d.Filtered, d.FilterSummary())
	}
}

// TestDiscoverDedupRealPath is issue 17 item 9: a relative root plus an
// absolute symlink into the tree swept one run twice under two run ids.
// Runs are identified by their real path: found once, by the path without
// links; another root reaching them is told.
func TestDiscoverDedupRealPath(t *testing.T) {
	base := t.TempDir()
	tree(t, base, "arch/sub/run1/events.jsonl", "arch/sub/run2/events.jsonl")
	if err := os.Symlink(filepath.Join(base, "arch", "sub"), filepath.Join(base, "arch", "link")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(base)
	runs, errs := Discover([]string{"arch"}, nil, nil)
	if got := rels(runs); len(errs) != 0 || !slices.Equal(got, []string{"sub/run1", "sub/run2"}) {
		t.Fatalf("relative root with an absolute link into it: %q, %v", got, errs)
	}
	second := filepath.Join(base, "arch", "link", "run1")
	runs, errs = Discover([]string{"arch", second}, nil, nil)
	if got := rels(runs); !slices.Equal(got, []string{"sub/run1", "sub/run2"}) || len(errs) != 1 ||
		errs[0].Error() != "root "+second+" is "+filepath.Join(base, "arch", "sub", "run1")+", already searched under root arch; skipped" {
		t.Fatalf("a second root onto a found run: %q, %v", got, errs)
	}
}

func TestDiscoverRootForms(t *testing.T) {
	dir := t.TempDir()
	tree(t, dir, "one/run7/events.jsonl", "one/run7/audit/p/events.jsonl", "two/run7/events.jsonl")

	// A root that is itself a run gets its base name; nested runs keep
	// their path relative to the root.
	runs, errs := Discover([]string{filepath.Join(dir, "one", "run7")}, nil, nil)
	if got := rels(runs); len(errs) != 0 || !slices.Equal(got, []string{"audit/p", "run7"}) {
		t.Fatalf("run root: got %q, %v", got, errs)
	}
	// An events file as root.
	runs, errs = Discover([]string{filepath.Join(dir, "one", "run7", "events.jsonl")}, nil, nil)
	if len(errs) != 0 || len(runs) != 1 || runs[0].Rel != "run7" || runs[0].EventsPath != filepath.Join(dir, "one", "run7", "events.jsonl") {
		t.Fatalf("file root: got %+v, %v", runs, errs)
	}
	// Two roots with the same relative path: the later one is reported.
	runs, errs = Discover([]string{filepath.Join(dir, "one"), filepath.Join(dir, "two"), filepath.Join(dir, "missing")}, nil, nil)
	if got := rels(runs); !slices.Equal(got, []string{"run7", "run7/audit/p"}) || runs[0].Root != filepath.Join(dir, "one") {
		t.Fatalf("two roots: got %q", got)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "collide") || !errors.Is(errs[1], os.ErrNotExist) {
		t.Fatalf("two roots: errors %v", errs)
	}
}

func TestDiscoverUnreadable(t *testing.T) {
	dir := archive(t)
	d, err := DiscoverWith(context.Background(), []string{dir}, DiscoverOptions{readDir: func(p string) ([]os.DirEntry, error) {
		if filepath.Base(p) == "c" {
			return nil, os.ErrPermission
		}
		return os.ReadDir(p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rels(d.Runs); !slices.Equal(got, []string{"a", "a-z", "b"}) {
		t.Fatalf("runs: got %q", got)
	}
	var perm int
	for _, err := range d.Problems {
		if errors.Is(err, os.ErrPermission) && strings.Contains(err.Error(), filepath.Join(dir, "c")) {
			perm++
		}
	}
	if perm != 1 || !slices.Equal(d.Unreadable, []string{filepath.Join(dir, "c")}) {
		t.Fatalf("errors: %v, unreadable %q; want one permission error naming c", d.Problems, d.Unreadable)
	}
}

func TestDiscoverParity(t *testing.T) {
	root := filepath.Join(repoRoot(t), "..", "shared", "parity", "runs")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared parity runs not available: %v", err)
	}
	runs, errs := Discover([]string{root}, nil, nil)
	if len(errs) != 0 || len(runs) != 18 {
		t.Fatalf("parity: %d runs, errors %v; want 18 runs", len(runs), errs)
	}
}

func TestShardKeyStable(t *testing.T) {
	// FNV-1a 64 of "a": a fixed value, so shard assignment never changes
	// between releases.
	if got := (RunRef{Rel: "a"}).ShardKey(); got != 0xaf63dc4c8601ec8c {
		t.Fatalf("ShardKey(a) = %#x", got)
	}
}

// repoRoot returns the directory holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	return sharedtest.RepoRoot(t)
}
