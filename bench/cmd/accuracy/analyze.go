package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"sync"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// suiteStamp records what a generated suite was made from, so a work
// directory is regenerated only when the seed or the suite changes.
type suiteStamp struct {
	Seed uint64   `json:"seed"`
	Runs []string `json:"runs"`
}

// ensureSuite generates the accuracy suite into dir unless a complete one
// with the same seed and run names is there.
func ensureSuite(dir string, seed uint64, progress io.Writer) error {
	runs := synth.AccuracySuite(seed)
	want := suiteStamp{Seed: seed}
	for _, r := range runs {
		want.Runs = append(want.Runs, r.Name)
	}
	stampPath := filepath.Join(dir, "suite.json")
	if raw, err := os.ReadFile(stampPath); err == nil {
		var have suiteStamp
		if json.Unmarshal(raw, &have) == nil && have.Seed == want.Seed && slices.Equal(have.Runs, want.Runs) {
			return nil
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	fmt.Fprintf(progress, "generating %d suite runs into %s\n", len(runs), dir)
	err := synth.GenerateSuite(dir, runs, true, func(done int) {
		if done%20 == 0 || done == len(runs) {
			fmt.Fprintf(progress, "  %d/%d\n", done, len(runs))
		}
	})
	if err != nil {
		return err
	}
	raw, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(stampPath, raw, 0o644)
}

// analyzeCorpus runs `bin analyze RUN --tokenizer words --no-cache --json
// OUT/NAME.json ARGS...` for every run directory under runsDir, jobs at a
// time. A run the binary cannot analyse leaves no output (judge.py counts it
// as missing) and its first stderr line is printed; old outputs are removed
// first so a failure is never scored from a stale file.
func analyzeCorpus(ctx context.Context, bin, runsDir, out string, args []string, jobs int, progress io.Writer) error {
	entries, err := os.ReadDir(runsDir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(progress, "analyzing %d runs of %s into %s (%v)\n", len(names), runsDir, out, args)
	work := make(chan string)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(1, jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for name := range work {
				cmdArgs := append([]string{"analyze", filepath.Join(runsDir, name), "--tokenizer", "words", "--no-cache",
					"--json", filepath.Join(out, name+".json")}, args...)
				cmd := exec.CommandContext(ctx, bin, cmdArgs...)
				if msg, err := cmd.CombinedOutput(); err != nil && ctx.Err() == nil {
					mu.Lock()
					fmt.Fprintf(progress, "  %s: %v: %s\n", name, err, firstLine(msg))
					mu.Unlock()
				}
			}
		}()
	}
	for _, name := range names {
		select {
		case work <- name:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	return ctx.Err()
}

func firstLine(b []byte) string {
	for i, c := range b {
		if c == '\n' {
			return string(b[:i])
		}
	}
	return string(b)
}
