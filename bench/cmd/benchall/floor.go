package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sweep"
)

// floorSection measures issue 16's targets ("ingest at the hardware
// floor") in one run: decode throughput of both log shapes with word
// counts beside the bufio floor; analyze of the 183 MB AnalyzeSpec log
// cold and warm against the reference; peak RSS at 183 MB and 1 GB and at
// a fixed sample count; what a warm sweep of the 1 GB log reads; the
// 5 M-entry sample_idx_map.json; the binary's size and resident floor.
func floorSection(e *env) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "## 6. Ingest at the floor (issue 16)\n\n")
	mb183, mb1000 := int64(183e6), int64(1000e6)
	if e.quick {
		mb183, mb1000 = 18e6, 40e6
	}
	dir183 := filepath.Join(e.work, "floor-183")
	dir1000 := filepath.Join(e.work, "floor-1000")
	dirFat := filepath.Join(e.work, "floor-fat") // same samples as dir183, twice the bytes
	parity := filepath.Join(e.work, "floor-parity.jsonl")
	spec := bench.AnalyzeSpec()
	fat := spec
	fat.OutputScale *= 2.2
	var size183, size1000, sizeFat int64
	e.logf("floor: generating %d MB, %d MB and a fat run", mb183/1e6, mb1000/1e6)
	var err error
	if size183, err = bench.GenerateRun(dir183, spec, mb183); err != nil {
		return "", err
	}
	if size1000, err = bench.GenerateRun(dir1000, spec, mb1000); err != nil {
		return "", err
	}
	f, err := os.Create(parity)
	if err != nil {
		return "", err
	}
	sizeParity, err := benchlog.ParityShape(f, 200e6/map[bool]int64{true: 10, false: 1}[e.quick])
	if err := errorsJoin(err, f.Close()); err != nil {
		return "", err
	}
	if err := ensureBig(e); err != nil {
		return "", err
	}
	long := filepath.Join(e.bigDir, "events.jsonl")

	// Decode with word counts, one worker, beside the bufio floor.
	type dec struct {
		name, path string
		size       int64
	}
	decs := []dec{{"parity shape (`benchlog.ParityShape`)", parity, sizeParity}, {"long-output shape (section 1's log)", long, e.bigSize}}
	fmt.Fprintf(&b, "### Decode, word counts included\n\n`columnar.DecodeReader` with `tokenizer.Words` (counted on the escaped bytes), one worker, "+
		"page cache warm, against `bufio.Scanner` splitting the same file; MB/CPU-s is bytes over the process's CPU time. Median of %d.\n\n", e.reps)
	fmt.Fprintf(&b, "| log | size | decode MB/CPU-s | decode MB/s | bufio floor MB/CPU-s | target | verdict |\n|---|---:|---:|---:|---:|---:|---|\n")
	for i, d := range decs {
		if err := warmFile(d.path); err != nil {
			return "", err
		}
		e.logf("floor: decode %s ×%d", d.name, e.reps)
		ss, err := repeatGC(e.reps, func() error { _, err := decodeOnce(d.path, 1, true); return err })
		if err != nil {
			return "", err
		}
		fl, err := repeatGC(e.reps, func() error { _, err := lineSplit(d.path); return err })
		if err != nil {
			return "", err
		}
		m, mf := measured{size: d.size, samples: ss}, measured{size: d.size, samples: fl}
		goal := []float64{1000, 800}[i]
		cpu := bench.Median(m.mbPerCPU())
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.0f | %s |\n", d.name, fmtMB(d.size), fmtRange(m.mbPerCPU(), "%.0f"),
			fmtRange(m.mbps(), "%.0f"), fmtRange(mf.mbPerCPU(), "%.0f"), goal, verdict(cpu/goal, 1, ""))
		e.targets = append(e.targets, target{name: "decode+words, " + d.name, goal: fmt.Sprintf("≥ %.0f MB/CPU-s", goal),
			measured: fmt.Sprintf("%.0f MB/CPU-s (bufio floor %.0f)", cpu, bench.Median(mf.mbPerCPU())),
			ratio:    fmt.Sprintf("%.2f× target", cpu/goal), verdict: verdict(cpu/goal, 1, "")})
	}
	decoded = columnar.Decoded{}
	b.WriteString("\n")

	// End to end on the 183 MB run.
	out := filepath.Join(e.work, "floor-out")
	os.MkdirAll(out, 0o755)
	ourJSON, refJSON := filepath.Join(out, "ours.json"), filepath.Join(out, "ref.json")
	cacheDir := filepath.Join(out, "cache")
	cold, err := children(e, e.reps, "floor: analyze 183 MB cold", func() *exec.Cmd { return analyzeCmd(e, dir183, ourJSON, "--compat", "reference") })
	if err != nil {
		return "", err
	}
	warmCmd := func() *exec.Cmd {
		return exec.CommandContext(e.ctx, e.bin, "analyze", dir183, "--tokenizer", "words", "--cache-dir", cacheDir, "--json", ourJSON, "--compat", "reference")
	}
	if _, err := bench.RunChild(warmCmd()); err != nil {
		return "", err
	}
	warm, err := children(e, e.reps, "floor: analyze 183 MB warm", warmCmd)
	if err != nil {
		return "", err
	}
	otherJSON := filepath.Join(out, "other.json") // the 183 MB result in ourJSON is compared below
	big, err := children(e, 1, "floor: analyze 1 GB cold", func() *exec.Cmd { return analyzeCmd(e, dir1000, otherJSON) })
	if err != nil {
		return "", err
	}
	if sizeFat, err = bench.GenerateRun(dirFat, fat, 2*size183); err != nil {
		return "", err
	}
	fatRuns, err := children(e, 1, "floor: analyze fat run", func() *exec.Cmd { return analyzeCmd(e, dirFat, otherJSON) })
	if err != nil {
		return "", err
	}
	samples183 := countSamples(dir183)
	samplesFat := countSamples(dirFat)
	rf := findReference()
	py, refPath, pyInfo := rf.py, rf.path, rf.info
	var ref, ref1000 []bench.Child
	if rf.why == "" {
		mk := func() *exec.Cmd { return referenceCmd(e, py, refPath, dir183, refJSON) }
		if ref, err = children(e, e.reps, "floor: reference 183 MB", mk); err != nil {
			return "", err
		}
		refJSON1000 := filepath.Join(out, "ref-1000.json")
		mk1000 := func() *exec.Cmd { return referenceCmd(e, py, refPath, dir1000, refJSON1000) }
		if ref1000, err = children(e, 1, "floor: reference 1 GB", mk1000); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(&b, "### End to end\n\n`bench.AnalyzeSpec()` runs: %s (%d samples, dataset 1000) and %s; a *fat* run with the same kind of samples "+
		"but 2.2× longer answers, %s (%d samples). Fresh processes as in section 3 (`--tokenizer words`; `--compat reference` for the 183 MB rows, "+
		"so the outputs compare with the reference's); peak RSS from %s.\n\n", fmtMB(size183), samples183, fmtMB(size1000), fmtMB(sizeFat), samplesFat, bench.RSSMethod())
	fmt.Fprintf(&b, "| command | reps | wall | CPU | peak RSS |\n|---|---:|---:|---:|---:|\n")
	row := func(name string, cs []bench.Child) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(&b, "| %s | %d | %s s | %s s | %s |\n", name, len(cs), fmtRange(walls(cs), "%.3f"), fmtRange(cpus(cs), "%.3f"), fmtBytes(bench.Median(rsss(cs))))
	}
	row("analyze 183 MB, cold (`--no-cache`)", cold)
	row("analyze 183 MB, warm column cache", warm)
	row("analyze 1 GB, cold", big)
	row(fmt.Sprintf("analyze fat %s (same sample count as 183 MB), cold", fmtMB(sizeFat)), fatRuns)
	row(fmt.Sprintf("reference 183 MB (Python %s)", pyInfo), ref)
	row("reference 1 GB", ref1000)
	b.WriteString("\n")
	if len(ref) > 0 {
		same, desc, err := sameSteadyState(ourJSON, refJSON)
		if err == nil {
			fmt.Fprintf(&b, "Outputs: `--compat reference` and the reference %s (%s).\n\n", map[bool]string{true: "agree", false: "**disagree**"}[same], desc)
		}
		w, c := bench.Median(walls(ref))/bench.Median(walls(cold)), bench.Median(cpus(ref))/bench.Median(cpus(cold))
		ww := bench.Median(walls(ref)) / bench.Median(walls(warm))
		e.targets = append(e.targets,
			target{"cold analyze 183 MB vs reference", "≥ 20× wall (2 cores), ≥ 8× CPU", fmt.Sprintf("%.3f s / %.3f s CPU vs %.2f s / %.2f s", bench.Median(walls(cold)), bench.Median(cpus(cold)), bench.Median(walls(ref)), bench.Median(cpus(ref))),
				fmt.Sprintf("%.1f× wall, %.1f× CPU", w, c), verdictBoth(w/20, c/8), ""},
			target{"warm analyze 183 MB vs reference", "≥ 100× wall", fmt.Sprintf("%.3f s vs %.2f s", bench.Median(walls(warm)), bench.Median(walls(ref))), fmt.Sprintf("%.0f×", ww), verdict(ww/100, 1, ""), ""},
			target{"peak RSS 183 MB", "≤ reference's", fmt.Sprintf("%s vs %s", fmtBytes(bench.Median(rsss(cold))), fmtBytes(bench.Median(rsss(ref)))),
				fmt.Sprintf("%.2f×", bench.Median(rsss(cold))/bench.Median(rsss(ref))), verdict(bench.Median(rsss(ref))/bench.Median(rsss(cold)), 1, ""), ""})
		if len(ref1000) > 0 && len(big) > 0 {
			e.targets = append(e.targets, target{"peak RSS 1 GB", "≤ reference's", fmt.Sprintf("%s vs %s", fmtBytes(bench.Median(rsss(big))), fmtBytes(bench.Median(rsss(ref1000)))),
				fmt.Sprintf("%.2f×", bench.Median(rsss(big))/bench.Median(rsss(ref1000))), verdict(bench.Median(rsss(ref1000))/bench.Median(rsss(big)), 1, ""), ""})
		}
	} else {
		fmt.Fprintf(&b, "The reference was **not measured**: %s.\n\n", rf.why)
	}
	if len(fatRuns) > 0 {
		fmt.Fprintf(&b, "Flat in file size at a fixed sample count: %s at %s vs %s at %s (%.2f×).\n\n",
			fmtBytes(bench.Median(rsss(fatRuns))), fmtMB(sizeFat), fmtBytes(bench.Median(rsss(cold))), fmtMB(size183), bench.Median(rsss(fatRuns))/bench.Median(rsss(cold)))
	}

	// A warm sweep of the 1 GB run: bytes read by this process.
	e.logf("floor: sweep of the 1 GB run, cold then warm")
	sweepCache := filepath.Join(out, "sweep-cache")
	ref1 := corpora.RunRef{Path: dir1000, Rel: "floor-1000", EventsPath: filepath.Join(dir1000, "events.jsonl")}
	cfgs, err := bench.Configs(10)
	if err != nil {
		return "", err
	}
	var reads [2]int64
	var times [2]bench.Sample
	for i := range 2 {
		r0 := readBytes()
		s, err := bench.Time(func() error {
			_, err := sweep.Run(e.ctx, sweep.Options{Runs: []corpora.RunRef{ref1}, Configs: cfgs, Out: filepath.Join(out, "sweep-"+strconv.Itoa(i)), Jobs: 1,
				Load: loader(sweepCache), Analyze: sweep.DefaultAnalyzer, ToolVersion: "bench", ToolCommit: "bench"})
			return err
		})
		if err != nil {
			return "", err
		}
		reads[i], times[i] = readBytes()-r0, s
	}
	fmt.Fprintf(&b, "### A sweep of the 1 GB run, cold then warm\n\n`sweep.Run` in this process (10 configs, `sweep.DefaultLoader` with a column cache): bytes read "+
		"(`rchar` of /proc/self/io: every read call, page cache or not) and time.\n\n| sweep | bytes read | wall | CPU |\n|---|---:|---:|---:|\n")
	for i, name := range []string{"cold (fills the cache; hashes while decoding)", "warm (cache hit)"} {
		fmt.Fprintf(&b, "| %s | %s | %.2f s | %.2f s |\n", name, fmtMB(reads[i]), times[i].Wall, times[i].CPU)
	}
	b.WriteString("\n")
	e.targets = append(e.targets, target{"warm sweep of the 1 GB log", "does not read the events file", fmt.Sprintf("%s read (events %s)", fmtMB(reads[1]), fmtMB(size1000)),
		fmt.Sprintf("%.4f of the file", float64(reads[1])/float64(size1000)), verdict(float64(size1000)/float64(max(reads[1], 1))/10, 1, ""), ""})

	// sample_idx_map.json of 5 M entries, in a child process.
	n := 5_000_000
	if e.quick {
		n = 500_000
	}
	idxDir := filepath.Join(e.work, "floor-idx")
	if err := writeIndexRun(idxDir, n); err != nil {
		return "", err
	}
	fi, _ := os.Stat(filepath.Join(idxDir, "sample_idx_map.json"))
	idx, err := children(e, 3, "floor: sample_idx_map 5M", func() *exec.Cmd { return exec.CommandContext(e.ctx, e.self, "child-resolve", idxDir) })
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "### sample_idx_map.json\n\n`columnar.ResolveRun` of a run whose sample_idx_map.json holds %d entries (%s), in a child process (3 runs): %s s wall, %s s CPU, peak RSS %s.\n\n",
		n, fmtMB(fi.Size()), fmtRange(walls(idx), "%.2f"), fmtRange(cpus(idx), "%.2f"), fmtBytes(bench.Median(rsss(idx))))
	e.targets = append(e.targets, target{"sample_idx_map.json, 5 M entries", "< 1 s, < 300 MB", fmt.Sprintf("%.2f s wall (%.2f s CPU), %s", bench.Median(walls(idx)), bench.Median(cpus(idx)), fmtBytes(bench.Median(rsss(idx)))),
		fmt.Sprintf("%.2f× the time budget", bench.Median(walls(idx))), verdictBoth(1/bench.Median(walls(idx)), 300*(1<<20)/bench.Median(rsss(idx))), ""})

	// The binary.
	bi, _ := os.Stat(e.bin)
	ver, err := children(e, 3, "floor: version", func() *exec.Cmd { return exec.CommandContext(e.ctx, e.bin, "version") })
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "### The binary\n\n`%s`: %s; `steadysweep version` peaks at %s RSS: the pages of the binary that package "+
		"initialisation touches (arrow/compute builds its kernel registry at start-up; it comes with arrow-go's parquet/file, which "+
		"sweep's rows are written with; pqarrow, Arrow Flight, gRPC and protobuf are not linked: `TestBinaryLinksNoFlight`). "+
		"main releases those of them that are read-only at the command's first garbage collection (madvise, cmd/steadysweep/initpages_linux.go), so "+
		"a large command's peak is this floor or its own working set, whichever is larger, not their sum.\n\n",
		filepath.Base(e.bin), fmtBytes(float64(bi.Size())), fmtBytes(bench.Median(rsss(ver))))
	return b.String(), nil
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func verdictBoth(a, b float64) string {
	if a >= 1 && b >= 1 {
		return "met"
	}
	return fmt.Sprintf("**missed** (%.2f / %.2f of the goals)", a, b)
}

// countSamples is the run's tracked samples (a decode).
func countSamples(dir string) int {
	n, _ := decodeOnce(filepath.Join(dir, "events.jsonl"), 2, false)
	decoded = columnar.Decoded{}
	return n
}

// readBytes is rchar of /proc/self/io (0 when unavailable).
func readBytes() int64 {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "rchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}

// writeIndexRun writes a run directory with a tiny log and a
// sample_idx_map.json of n entries.
func writeIndexRun(dir string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(`{"event_type":"session.ended","timestamp_ns":1}`+"\n"), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "sample_idx_map.json"))
	if err != nil {
		return err
	}
	return errorsJoin(benchlog.SampleIndex(f, n), f.Close())
}
