package cache

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// TestDefaultCacheDir: the one default of --cache-dir and of a Cache
// without a Dir, on Linux where os.UserCacheDir's rule is documented
// ($XDG_CACHE_HOME, else $HOME/.cache): XDG first, then the user's cache
// directory, then none at all — before issue 27 the library fell back to
// the shared temporary directory while the CLI cached nothing.
func TestDefaultCacheDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the fallbacks asserted are Linux's (os.UserCacheDir)")
	}
	xdg, home := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		xdg, home, want string
	}{
		{xdg, home, filepath.Join(xdg, "steadysweep")},
		{"", home, filepath.Join(home, ".cache", "steadysweep")},
		{"", "", ""},
	} {
		t.Setenv("XDG_CACHE_HOME", c.xdg)
		t.Setenv("HOME", c.home)
		if got := DefaultCacheDir(); got != c.want {
			t.Errorf("XDG_CACHE_HOME=%q HOME=%q: %q, want %q", c.xdg, c.home, got, c.want)
		}
	}
}

// TestNoCacheDirCachesNothing: with no cache directory at all, a Cache
// decodes every time and writes nothing anywhere (not in the working
// directory, which a relative "" would name).
func TestNoCacheDirCachesNothing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("HOME unset leaves no user cache directory on Linux only")
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	wd := t.TempDir()
	t.Chdir(wd)
	events := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(events, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := &contract.Run{Dir: filepath.Dir(events), EventsPath: events, Part: -1}
	decodes := 0
	decode := func(context.Context, *contract.Run, contract.IngestOptions) (*contract.Loaded, error) {
		decodes++
		return &contract.Loaded{EventsSHA256: "00"}, nil
	}
	c := &Cache{}
	for range 2 {
		if _, hit := c.Lookup(run, contract.IngestOptions{}); hit {
			t.Fatal("a hit without a cache directory")
		}
		if _, err := c.Fill(context.Background(), run, contract.IngestOptions{}, decode); err != nil {
			t.Fatal(err)
		}
	}
	if decodes != 2 {
		t.Errorf("%d decodes, want 2 (nothing cached)", decodes)
	}
	if entries, _ := os.ReadDir(wd); len(entries) != 0 {
		t.Errorf("the working directory holds %d entries, want none", len(entries))
	}
	if _, ok := c.EventsDigest(events); ok {
		t.Error("an events digest without a cache directory")
	}
}
