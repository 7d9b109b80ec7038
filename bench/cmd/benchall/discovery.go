package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/steadysweep/steadysweep/bench"
)

// discoveryGoal is issue 32's: discovery of a wide archive within 2× the
// time of `find DIR -name events.jsonl` on the same tree.
const discoveryGoal = 2.0

// discoverySection measures issue 32's archive target: a tree of 50,000
// empty directories g{i%100}/s{i/100%10}/d{i} holding one run (a 2 MB
// generated log at g1/s1/run), swept whole by `steadysweep sweep`
// (discovery, the one run analysed, rows written — an upper bound on
// discovery alone) against `find TREE -name events.jsonl`, interleaved,
// dentries warm (one untimed find first).
func discoverySection(e *env) (string, error) {
	dirs := 50000
	if e.quick {
		dirs /= 10
	}
	tree := filepath.Join(e.work, "discovery", "tree")
	e.logf("discovery: making %d directories", dirs)
	for i := range dirs {
		if err := os.MkdirAll(filepath.Join(tree, fmt.Sprintf("g%d/s%d/d%d", i%100, i/100%10, i)), 0o755); err != nil {
			return "", err
		}
	}
	runSize, err := bench.GenerateRun(filepath.Join(tree, "g1", "s1", "run"), bench.AnalyzeSpec(), 2e6)
	if err != nil {
		return "", err
	}
	find := func() *exec.Cmd { return exec.CommandContext(e.ctx, "find", tree, "-name", "events.jsonl") }
	if _, err := bench.RunChild(find()); err != nil { // dentries warm
		return "", err
	}
	reps := min(e.reps, 3)
	var finds, sweeps []bench.Child
	for i := range reps {
		e.logf("discovery: find, sweep (%d/%d)", i+1, reps)
		f, err := bench.RunChild(find())
		if err != nil {
			return "", err
		}
		out := filepath.Join(e.work, "discovery", fmt.Sprintf("out-%d", i))
		s, err := bench.RunChild(exec.CommandContext(e.ctx, e.bin, "sweep", tree, "-o", out, "--tokenizer", "words", "--no-cache"))
		if err != nil {
			return "", err
		}
		finds, sweeps = append(finds, f), append(sweeps, s)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "## Discovery of a wide archive (issue 32; `benchall -sections discovery`)\n\n")
	fmt.Fprintf(&b, "A tree of %d empty directories `g{i%%100}/s{i/100%%10}/d{i}` holding one run (a %s generated log at `g1/s1/run`), "+
		"dentries warm (one untimed `find` first); %d runs of each, interleaved; CPU = user+system from `wait4`.\n\n", dirs, fmtMB(runSize), reps)
	fmt.Fprintf(&b, "```sh\nfind TREE -name events.jsonl\nsteadysweep sweep TREE -o OUT --tokenizer words --no-cache   # discovery, the one run analysed, rows written\n```\n\n")
	fmt.Fprintf(&b, "| command | runs | wall | CPU |\n|---|---:|---:|---:|\n")
	for _, r := range []struct {
		name string
		cs   []bench.Child
	}{{"`find`", finds}, {"`steadysweep sweep` (the whole sweep)", sweeps}} {
		fmt.Fprintf(&b, "| %s | %d | %s s | %s s |\n", r.name, len(r.cs), fmtRange(walls(r.cs), "%.2f"), fmtRange(cpus(r.cs), "%.2f"))
	}
	ratio := bench.Median(walls(sweeps)) / bench.Median(walls(finds))
	fmt.Fprintf(&b, "\nThe whole sweep takes %.2f× `find`'s wall and %.2f× its CPU; discovery alone is less.\n\n",
		ratio, bench.Median(cpus(sweeps))/bench.Median(cpus(finds)))
	e.addTarget(target{
		key:      "i32-discovery",
		name:     fmt.Sprintf("discovery of %d directories (the whole sweep of the tree)", dirs),
		goal:     "≤ 2× `find DIR -name events.jsonl` (wall)",
		measured: fmt.Sprintf("%.2f s vs `find`'s %.2f s wall (CPU %.2f s vs %.2f s)", bench.Median(walls(sweeps)), bench.Median(walls(finds)), bench.Median(cpus(sweeps)), bench.Median(cpus(finds))),
		ratio:    fmt.Sprintf("%.2f× `find`", ratio),
		verdict:  verdict(discoveryGoal/ratio, 1, ""),
	})
	return b.String(), nil
}
