package corpora

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tree creates files (slash paths relative to dir, content "x").
func tree(t *testing.T, dir string, files ...string) {
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
		{"include star", []string{"a*"}, nil, []string{"a", "a-z"}},
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
	d := discoverer{readDir: func(p string) ([]os.DirEntry, error) {
		if filepath.Base(p) == "c" {
			return nil, os.ErrPermission
		}
		return os.ReadDir(p)
	}}
	d.discoverRoot(dir)
	if got := rels(d.runs); !slices.Equal(got, []string{"a", "a-z", "b"}) {
		t.Fatalf("runs: got %q", got)
	}
	var perm int
	for _, err := range d.errs {
		if errors.Is(err, os.ErrPermission) && strings.Contains(err.Error(), filepath.Join(dir, "c")) {
			perm++
		}
	}
	if perm != 1 {
		t.Fatalf("errors: %v, want one permission error naming c", d.errs)
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
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test directory")
		}
		dir = parent
	}
}
