package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strings"
)

// profileTop runs fn under the CPU profiler and returns the profile's
// cumulative top functions from this module (plus sorting and byte
// search, where our hot loops end up), as printed by `go tool pprof`, so
// that a missed target comes with where its time goes.
func profileTop(e *env, name string, n int, fn func() error) (string, error) {
	path := filepath.Join(e.work, name+".pprof")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return "", err
	}
	ferr := fn()
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		return "", err
	}
	if ferr != nil {
		return "", ferr
	}
	out, err := exec.CommandContext(e.ctx, "go", "tool", "pprof", "-top", "-cum", "-nodecount", "60", e.self, path).Output()
	if err != nil {
		return "", fmt.Errorf("go tool pprof: %w", err)
	}
	keep := regexp.MustCompile(`steadysweep/steadysweep/(columnar|core|sweep)|slices\.Sort|sort\.|indexbytebody|utf8\.Valid|runtime\.mallocgc$|runtime\.gcBgMarkWorker$`)
	var lines []string
	header := true
	for _, l := range strings.Split(string(out), "\n") {
		switch {
		case strings.Contains(l, "flat%"):
			lines = append(lines, l)
			header = false
		case header:
			if strings.HasPrefix(l, "Showing nodes") || strings.HasPrefix(l, "Duration") {
				lines = append(lines, l)
			}
		case keep.MatchString(l) && len(lines) < n+3:
			lines = append(lines, strings.Replace(l, "github.com/steadysweep/steadysweep/", "", 1))
		}
	}
	return "```\n" + strings.Join(lines, "\n") + "\n```\n", nil
}
