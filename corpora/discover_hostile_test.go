//go:build unix

package corpora

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

// TestDiscoverLinksStayInside is issue 30's containment case: a link in
// the archive to another directory tree, and one to /, were followed (the
// second walked the whole machine, /proc included). By default neither
// is followed, both are named; --follow-links follows the first, and the
// second, an ancestor of the directory holding it, is a loop.
func TestDiscoverLinksStayInside(t *testing.T) {
	base := t.TempDir()
	tree(t, base, "arch/a/events.jsonl", "elsewhere/r/events.jsonl")
	arch := filepath.Join(base, "arch")
	if err := os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(arch, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/", filepath.Join(arch, "slash")); err != nil {
		t.Fatal(err)
	}
	var reads atomic.Int64
	count := func(p string) ([]fs.DirEntry, error) { reads.Add(1); return os.ReadDir(p) }
	d, err := DiscoverWith(context.Background(), []string{arch}, DiscoverOptions{readDir: count})
	if err != nil {
		t.Fatal(err)
	}
	if got := rels(d.Runs); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("default: runs %q, want only a", got)
	}
	slices.Sort(d.Outside)
	if want := []string{filepath.Join(arch, "out"), filepath.Join(arch, "slash")}; !slices.Equal(d.Outside, want) || len(d.Problems) != 2 ||
		!strings.Contains(d.Problems[0].Error(), "outside the searched roots") {
		t.Fatalf("default: outside %q, problems %v; want both links named", d.Outside, d.Problems)
	}
	if reads.Load() != 2 { // arch and arch/a: nothing outside was listed
		t.Fatalf("default: %d directories read, want 2", reads.Load())
	}
	d, err = DiscoverWith(context.Background(), []string{arch}, DiscoverOptions{FollowLinks: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := rels(d.Runs); !slices.Equal(got, []string{"a", "out/r"}) {
		t.Fatalf("--follow-links: runs %q, want a and out/r", got)
	}
	if len(d.Problems) != 1 || !strings.Contains(d.Problems[0].Error(), "symlink loop: "+filepath.Join(arch, "slash")) {
		t.Fatalf("--follow-links: problems %v, want the link to / refused as a loop", d.Problems)
	}
	// A link resolving inside another root is inside the archive.
	other := filepath.Join(base, "elsewhere")
	d, err = DiscoverWith(context.Background(), []string{arch, other}, DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rels(d.Runs); !slices.Equal(got, []string{"a", "out/r"}) {
		t.Fatalf("two roots: runs %q", got)
	}
}

// TestDiscoverOneReadPerDirectory: every directory is listed once, and
// no file that cannot be a run's log is opened: a FIFO named like a
// note would block an open forever.
func TestDiscoverOneReadPerDirectory(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 60 {
		files = append(files, fmt.Sprintf("g%d/d%d/notes.txt", i%6, i))
	}
	tree(t, dir, append(files, "g0/run/events.jsonl", "g1/r2/client/events.jsonl.gz")...)
	if err := syscall.Mkfifo(filepath.Join(dir, "g2", "pipe.json"), 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	var mu sync.Mutex
	reads := map[string]int{}
	count := func(p string) ([]fs.DirEntry, error) {
		mu.Lock()
		reads[p]++
		mu.Unlock()
		return os.ReadDir(p)
	}
	d, err := DiscoverWith(context.Background(), []string{dir}, DiscoverOptions{readDir: count})
	if err != nil || len(d.Problems) != 0 {
		t.Fatal(err, d.Problems)
	}
	if got := rels(d.Runs); !slices.Equal(got, []string{"g0/run", "g1/r2"}) {
		t.Fatalf("runs %q", got)
	}
	// 1 root + 6 groups + 60 leaves + 2 runs + r2/client (read once, to
	// find the run's events file).
	if len(reads) != 70 {
		t.Errorf("%d directories read, want 70", len(reads))
	}
	for p, n := range reads {
		if n != 1 {
			t.Errorf("%s read %d times", p, n)
		}
	}
}

// TestDiscoverCancel: a cancelled discovery returns the context's error
// and no runs, and stops listing within a few directories of the cancel
// (at most one in flight per walker).
func TestDiscoverCancel(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 400 {
		files = append(files, fmt.Sprintf("d%d/e/events.jsonl", i))
	}
	tree(t, dir, files...)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d, err := DiscoverWith(ctx, []string{dir}, DiscoverOptions{}); !errors.Is(err, context.Canceled) || len(d.Runs) != 0 {
		t.Fatalf("cancelled before: %v, %d runs", err, len(d.Runs))
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var reads atomic.Int64
	const jobs = 4
	hook := func(p string) ([]fs.DirEntry, error) {
		if reads.Add(1) == 50 {
			cancel()
		}
		return os.ReadDir(p)
	}
	d, err := DiscoverWith(ctx, []string{dir}, DiscoverOptions{readDir: hook, Jobs: jobs})
	if !errors.Is(err, context.Canceled) || len(d.Runs) != 0 {
		t.Fatalf("cancelled within: %v, %d runs", err, len(d.Runs))
	}
	// Each walker finishes the listing it started; an events directory
	// may read client/ once more.
	if n := reads.Load(); n > 50+2*(jobs+1) {
		t.Fatalf("%d directories read after a cancel at the 50th of 801", n)
	}
}

// TestDiscoverEventsLinksStayInside is issue 30's "links to events files
// outside the archive": a run directory inside the archive whose
// events.jsonl is a link to a log elsewhere, and one whose client/ is a
// link to a directory elsewhere, were read through the links. By default
// neither is a run and both links are named (Outside, Problems);
// --follow-links reads them; an events link resolving inside the archive
// stays a run.
func TestDiscoverEventsLinksStayInside(t *testing.T) {
	base := t.TempDir()
	tree(t, base, "arch/a/events.jsonl", "arch/store/b.jsonl", "arch/linkout/config.yaml", "arch/clientout/config.yaml",
		"arch/linkin/config.yaml", "secret/events.jsonl", "secretclient/events.jsonl")
	arch := filepath.Join(base, "arch")
	for link, target := range map[string]string{
		"arch/linkout/events.jsonl": "secret/events.jsonl",
		"arch/clientout/client":     "secretclient",
		"arch/linkin/events.jsonl":  "arch/store/b.jsonl",
	} {
		if err := os.Symlink(filepath.Join(base, target), filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := DiscoverWith(context.Background(), []string{arch}, DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rels(d.Runs); !slices.Equal(got, []string{"a", "linkin"}) {
		t.Fatalf("default: runs %q, want a and linkin (the links out not read)", got)
	}
	slices.Sort(d.Outside)
	want := []string{filepath.Join(arch, "clientout/client"), filepath.Join(arch, "linkout/events.jsonl")}
	if !slices.Equal(d.Outside, want) || len(d.Problems) != 2 || !strings.Contains(fmt.Sprint(d.Problems), "outside the searched roots; not read") {
		t.Fatalf("default: outside %q, problems %v; want both links named", d.Outside, d.Problems)
	}
	d, err = DiscoverWith(context.Background(), []string{arch}, DiscoverOptions{FollowLinks: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := rels(d.Runs); !slices.Equal(got, []string{"a", "clientout", "linkin", "linkout"}) || len(d.Outside) != 0 {
		t.Fatalf("--follow-links: runs %q, outside %q", got, d.Outside)
	}
}
