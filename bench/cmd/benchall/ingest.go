package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// child runs one measured operation in this process, for a parent that
// reads its peak RSS from the kernel:
//
//	benchall child-decode EVENTS WORKERS none|words
//	benchall child-bufio EVENTS
func child(mode string, args []string) error {
	switch mode {
	case "child-decode":
		if len(args) != 3 {
			return fmt.Errorf("usage: child-decode EVENTS WORKERS none|words")
		}
		w, err := strconv.Atoi(args[1])
		if err != nil {
			return err
		}
		_, err = decodeOnce(args[0], w, args[2] == "words")
		return err
	case "child-resolve":
		if len(args) != 1 {
			return fmt.Errorf("usage: child-resolve RUN_DIR")
		}
		run, err := columnar.ResolveRun(context.Background(), args[0])
		if err == nil && run.Sidecars.SampleIndex == nil {
			err = fmt.Errorf("%s: no sample index read: %v", args[0], run.Warnings)
		}
		return err
	case "child-bufio":
		if len(args) != 1 {
			return fmt.Errorf("usage: child-bufio EVENTS")
		}
		_, err := lineSplit(args[0])
		return err
	}
	return fmt.Errorf("unknown child mode %q", mode)
}

// lineSplit is the floor: bufio.Scanner over the file, nothing else.
func lineSplit(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	n := 0
	for sc.Scan() {
		n += len(sc.Bytes())
	}
	return n, sc.Err()
}

var decoded columnar.Decoded

// decodeOnce decodes path with DecodeReader, reusing one Decoded across
// calls as a long-lived process would.
func decodeOnce(path string, workers int, words bool) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	opts := columnar.DecodeOptions{Name: path, Workers: workers}
	if words {
		opts.Counter = tokenizer.Words{}
	}
	if err := columnar.DecodeReader(context.Background(), f, opts, &decoded); err != nil {
		return 0, err
	}
	return decoded.Samples.Len(), nil
}

// warmFile reads path once so every measurement starts from the page cache.
func warmFile(path string) error {
	_, err := lineSplit(path)
	return err
}

// measured is a series of repetitions of one operation over size bytes.
type measured struct {
	name    string
	size    int64
	samples []bench.Sample
}

func (m measured) mbps() []float64 {
	out := make([]float64, len(m.samples))
	for i, s := range m.samples {
		out[i] = float64(m.size) / 1e6 / s.Wall
	}
	return out
}

func (m measured) mbPerCPU() []float64 {
	out := make([]float64, len(m.samples))
	for i, s := range m.samples {
		out[i] = float64(m.size) / 1e6 / s.CPU
	}
	return out
}

func repeatGC(n int, fn func() error) ([]bench.Sample, error) {
	out := make([]bench.Sample, 0, n)
	for range n {
		runtime.GC()
		s, err := bench.Time(fn)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func ingestSection(e *env) (string, error) {
	if err := ensureBig(e); err != nil {
		return "", err
	}
	path := filepath.Join(e.bigDir, "events.jsonl")
	if err := warmFile(path); err != nil {
		return "", err
	}
	ncpu := runtime.GOMAXPROCS(0)
	type op struct {
		name string
		fn   func() error
	}
	var samples int
	ops := []op{
		{"bufio line split (floor)", func() error { _, err := lineSplit(path); return err }},
		{"decode, 1 worker", func() error { var err error; samples, err = decodeOnce(path, 1, false); return err }},
		{fmt.Sprintf("decode, %d workers (all cores)", ncpu), func() error { _, err := decodeOnce(path, ncpu, false); return err }},
		{"decode + word counts, 1 worker", func() error { _, err := decodeOnce(path, 1, true); return err }},
		{fmt.Sprintf("decode + word counts, %d workers", ncpu), func() error { _, err := decodeOnce(path, ncpu, true); return err }},
	}
	var ms []measured
	for _, o := range ops {
		reps := e.reps
		e.logf("ingest: %s ×%d", o.name, reps)
		ss, err := repeatGC(reps, o.fn)
		if err != nil {
			return "", fmt.Errorf("%s: %w", o.name, err)
		}
		ms = append(ms, measured{o.name, e.bigSize, ss})
	}
	e.bigSamples, e.bigDec1, e.bigDecN, e.bigDecWords = samples, ms[1].samples, ms[2].samples, ms[3].samples
	floor := bench.Median(ms[0].mbps())
	floorCPU := bench.Median(ms[0].mbPerCPU())

	// Peak RSS, each in a child process of its own.
	type rssRow struct {
		name string
		args []string
	}
	rssRows := []rssRow{
		{"bufio line split (floor)", []string{"child-bufio", path}},
		{"decode, 1 worker", []string{"child-decode", path, "1", "none"}},
		{fmt.Sprintf("decode, %d workers", ncpu), []string{"child-decode", path, strconv.Itoa(ncpu), "none"}},
		{fmt.Sprintf("decode + word counts, %d workers", ncpu), []string{"child-decode", path, strconv.Itoa(ncpu), "words"}},
	}
	rssReps := 1 // the workload is deterministic; peak RSS varies little
	var rss [][]bench.Child
	for _, r := range rssRows {
		e.logf("ingest: peak RSS of %s ×%d", r.name, rssReps)
		var cs []bench.Child
		for range rssReps {
			c, err := bench.RunChild(exec.CommandContext(e.ctx, e.self, r.args...))
			if err != nil {
				return "", err
			}
			cs = append(cs, c)
		}
		rss = append(rss, cs)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "## 1. Ingest\n\n")
	fmt.Fprintf(&b, "A %s log (%d tracked samples) from `synth.GenerateLog` (%s), read from the page cache. "+
		"`decode` is `columnar.DecodeReader` without a token counter (every count left at −1) unless the row says "+
		"word counts (`tokenizer.Words`, Python's `len(text.split())`). The floor is `bufio.Scanner` splitting the same "+
		"file into lines and doing nothing else. MB/s is file bytes over wall time; MB/CPU-s is file bytes over the "+
		"process's CPU time during the call (GC included), the per-core figure that the machine's load disturbs least.\n\n",
		fmtMB(e.bigSize), samples, logSpecText())
	fmt.Fprintf(&b, "| operation | reps | MB/s (wall) | × floor | MB/CPU-s | × floor |\n|---|---:|---:|---:|---:|---:|\n")
	for _, m := range ms {
		w, c := bench.Median(m.mbps()), bench.Median(m.mbPerCPU())
		fmt.Fprintf(&b, "| %s | %d | %s | %.2f | %s | %.2f |\n", m.name, len(m.samples), fmtRange(m.mbps(), "%.0f"), w/floor, fmtRange(m.mbPerCPU(), "%.0f"), c/floorCPU)
	}
	fmt.Fprintf(&b, "\nPeak RSS of a child process that does only this (%s; %d run each):\n\n", bench.RSSMethod(), rssReps)
	fmt.Fprintf(&b, "| operation | peak RSS | wall |\n|---|---:|---:|\n")
	for i, r := range rssRows {
		var rs, ws []float64
		for _, c := range rss[i] {
			rs = append(rs, float64(c.MaxRSS))
			ws = append(ws, c.Wall)
		}
		fmt.Fprintf(&b, "| %s | %s | %.2f s |\n", r.name, fmtBytes(bench.Median(rs)), bench.Median(ws))
	}
	b.WriteString("\n")

	e.logf("ingest: CPU profile of decode, 1 worker")
	prof, err := profileTop(e, "decode", 14, func() error { _, err := decodeOnce(path, 1, false); return err })
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "Where the time of `decode, 1 worker` goes (one more pass under the CPU profiler; `go tool pprof -top -cum`, "+
		"this module's functions plus byte search, UTF-8 validation and sorting):\n\n%s\n", prof)

	one := ms[1]
	perCoreCPU := bench.Median(one.mbPerCPU())
	perCoreWall := bench.Median(one.mbps())
	e.targets = append(e.targets, target{
		name:     "ingest per core",
		goal:     "≥ 800 MB/s",
		measured: fmt.Sprintf("%.0f MB/CPU-s (%.0f MB/s wall), 1 worker, no tokenizer", perCoreCPU, perCoreWall),
		ratio:    fmt.Sprintf("%.2f× target (CPU), %.2f× (wall); %.2f× the bufio floor", perCoreCPU/800, perCoreWall/800, perCoreWall/floor),
		verdict:  verdict(perCoreCPU/800, 1, "MB/CPU-s"),
	})
	return b.String(), nil
}

func logSpecText() string {
	s := bench.LogSpec()
	return fmt.Sprintf("preset `%s`, closed loop C=%d, dataset %d, output scale %g", s.Preset, s.Concurrency, s.DatasetSize, s.OutputScale)
}

// verdict says whether ratio (measured/goal, higher is better) meets 1,
// and by how much it misses.
func verdict(ratio, goal float64, unit string) string {
	if ratio >= goal {
		return "met"
	}
	return fmt.Sprintf("**missed by %.0f%%**", (1-ratio/goal)*100)
}

func fmtRange(xs []float64, f string) string {
	lo, hi := bench.MinMax(xs)
	if len(xs) == 1 {
		return fmt.Sprintf(f, xs[0])
	}
	return fmt.Sprintf(f+" ("+f+"–"+f+")", bench.Median(xs), lo, hi)
}

func fmtMB(n int64) string { return fmt.Sprintf("%.0f MB", float64(n)/1e6) }

func fmtBytes(n float64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", n/(1<<30))
	default:
		return fmt.Sprintf("%.0f MiB", n/(1<<20))
	}
}
