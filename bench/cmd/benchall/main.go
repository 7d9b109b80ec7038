// Command benchall runs steadysweep's benchmarks against their anchors and
// writes the results as Markdown:
//
//	go run ./bench/cmd/benchall -o bench/RESULTS.md     (what `make bench` runs)
//
// Sections (all by default; -sections picks some):
//
//	ingest     decode MB/s of a generated ~200 MB log, 1 worker and all
//	           cores, against the bufio line-split floor; peak RSS
//	tokenizer  Mtok/s and MB/s per core of each shared tokenizer on the
//	           shared texts, against the Hugging Face Rust tokenizer
//	           (npm @anush008/tokenizers, when node and npm are present)
//	analyze    `steadysweep analyze` against the Python reference detector
//	           (env STEADYSWEEP_REFERENCE) on the same log and word counter
//	sweep      runs/s and rows/s of 200 runs × 100 configs, --jobs 1 and 2,
//	           cold and warm column cache; per-config core cost
//	scale      growth of each cost with log size and with configs
//	floor      issue 16's targets: decode with word counts of both shapes
//	           beside the bufio floor, analyze 183 MB cold and warm and peak
//	           RSS at 183 MB and 1 GB against the reference, a warm sweep's
//	           reads, a 5 M-entry sample_idx_map.json, the binary
//	streamed   issue 32's: decode of the endpoints client's streamed layout
//	           (two chunks, and a chunk per word) beside the floor; analyze
//	           of the 185 MB two-chunk run cold and warm with the cache on,
//	           interleaved with the reference (-streamed-ours runs of each
//	           of ours per reference run)
//	tokcache   issue 32's: zero-flag analyze of a 2.7 MB run with gpt-oss's
//	           tokenizer.json in a Hugging Face cache, first run and second
//	           (tokenizer cache warm, column cache cold)
//	longrun    issue 32's: analyze of 10,000 super-passes
//	sweeprows  issue 32's: per config through a whole sweep (1001 configs
//	           of the default preset minus one, rows included)
//	startup    issue 32's: fresh processes of `steadysweep --version`, a
//	           static Go hello-world (the machine's floor) and a warm
//	           zero-flag analyze of a small run: CPU, wall, max RSS, faults
//	discovery  issue 32's: a sweep of a tree of 50,000 directories holding
//	           one run against `find DIR -name events.jsonl`
//
// Environment:
//
//	STEADYSWEEP_REFERENCE   path to steady_state_diagnostics.py (mlcommons/
//	                        endpoints @ 40b78bfe); the analyze comparison is
//	                        skipped without it
//	STEADYSWEEP_PYTHON      Python interpreter for the reference (python3)
//	STEADYSWEEP_SHARED      the shared directory (default ../shared)
//	STEADYSWEEP_BENCH_CACHE where the npm tokenizer is installed (default
//	                        the user cache dir /steadysweep-bench)
//
// The output ends with a summary of every issue-32 target (goal, measured,
// verdict), computed from the run's measurements; a target whose section
// did not run says so.
//
// Generated inputs live in a temporary directory (-work) removed at the
// end unless -keep is set.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

var (
	outFlag       = flag.String("o", "bench/RESULTS.md", "Markdown file to write (- for stdout)")
	sectionsFlag  = flag.String("sections", "ingest,tokenizer,analyze,sweep,scale,floor,streamed,tokcache,longrun,sweeprows,startup,discovery", "comma list of sections to run")
	workFlag      = flag.String("work", "", "directory for generated inputs (default: a new temporary directory)")
	keepFlag      = flag.Bool("keep", false, "keep the generated inputs")
	quickFlag     = flag.Bool("quick", false, "small sizes and 2 repetitions, to check the harness (not for RESULTS.md)")
	repsFlag      = flag.Int("reps", 5, "repetitions of each main measurement (the median is reported)")
	binFlag       = flag.String("bin", "", "the steadysweep binary to time (default: built from this tree into the work directory; make bench passes the one it built)")
	sweepRepsFlag = flag.Int("sweep-reps", 5, "repetitions of each sweep variant (a sweep is 20,000 analyses)")
	hfRepsFlag    = flag.Int("hf-reps", 5, "timed passes of the HF tokenizer per tokenizer (after one warm-up pass)")
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchall: ")
	if len(os.Args) > 1 && strings.HasPrefix(os.Args[1], "child-") {
		if err := child(os.Args[1], os.Args[2:]); err != nil {
			log.Fatal(err)
		}
		return
	}
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx); err != nil {
		log.Fatal(err)
	}
}

// env is what every section shares.
type env struct {
	ctx    context.Context
	work   string
	reps   int
	quick  bool
	bin    string
	self   string
	shared string
	start  time.Time

	// big is the ~200 MB run of the ingest section, reused by the
	// analyze, sweep (per-config cost) and scale sections.
	bigDir  string
	bigSize int64
	// Measurements of the big run kept for the scale table's 200 MB row.
	bigSamples       int
	bigDec1, bigDecN []bench.Sample
	bigDecWords      []bench.Sample // decode + word counts, 1 worker
	bigOurs, bigRef  []bench.Child
	bigNSP           int
	bigGenS          float64
	bigLoaded        *core.Samples
	bigInfo          core.RunInfo

	// launcher is the static program that starts a command and reports
	// its own rusage (ensureLauncher), built on first use.
	launcher string

	// rowsCosts are the per-config costs through a whole sweep, measured
	// by the first of the sweep and longrun sections that needs them.
	rowsCosts []float64

	targets []target
	notes   []string
}

// target is one row of the summary table; key names the issue-32 goal
// it reports (issue32Goals), "" for the other issues' targets.
type target struct {
	name, goal, measured, ratio, verdict string
	key                                  string
}

func (e *env) logf(format string, args ...any) {
	log.Printf("[%5.0fs] "+format, append([]any{time.Since(e.start).Seconds()}, args...)...)
}

func run(ctx context.Context) error {
	e := &env{ctx: ctx, reps: *repsFlag, quick: *quickFlag, start: time.Now()}
	if e.quick {
		e.reps = 2
	}
	var err error
	if e.self, err = os.Executable(); err != nil {
		return err
	}
	// Scripts and the binary are found relative to the module root.
	if gomod, err := exec.Command("go", "env", "GOMOD").Output(); err == nil {
		if gm := strings.TrimSpace(string(gomod)); filepath.Base(gm) == "go.mod" {
			root := filepath.Dir(gm)
			if err := os.Chdir(root); err != nil {
				return err
			}
		}
	}
	e.work = *workFlag
	if e.work == "" {
		if e.work, err = os.MkdirTemp("", "steadysweep-bench-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(e.work, 0o755); err != nil {
		return err
	}
	if !*keepFlag {
		defer os.RemoveAll(e.work)
	}
	e.shared = os.Getenv("STEADYSWEEP_SHARED")
	if e.shared == "" {
		e.shared = filepath.Join("..", "shared")
	}
	if e.bin, err = ensureBinary(e); err != nil {
		return err
	}
	loadStart := bench.LoadAvg()
	commit := gitCommit()
	want := map[string]bool{}
	for s := range strings.SplitSeq(*sectionsFlag, ",") {
		want[strings.TrimSpace(s)] = true
	}
	type section struct {
		name string
		fn   func(*env) (string, error)
	}
	if rf := findReference(); rf.why != "" && (want["analyze"] || want["scale"] || want["floor"] || want["streamed"]) {
		e.logf("the Python reference is skipped: %s (the analyze, scale, floor and streamed sections measure ours alone)", rf.why)
		e.notes = append(e.notes, fmt.Sprintf("**The Python reference was not run**: %s. The comparisons with it are missing "+
			"(point STEADYSWEEP_REFERENCE at steady_state_diagnostics.py of mlcommons/endpoints @ 40b78bfe, STEADYSWEEP_PYTHON at a Python with PyYAML).", rf.why))
	}
	var body strings.Builder
	for _, s := range []section{
		{"ingest", ingestSection},
		{"tokenizer", tokenizerSection},
		{"analyze", analyzeSection},
		{"sweep", sweepSection},
		{"scale", scaleSection},
		{"floor", floorSection},
		{"streamed", streamedSection},
		{"tokcache", tokcacheSection},
		{"longrun", longRunSection},
		{"sweeprows", sweepRowsSection},
		{"startup", startupSection},
		{"discovery", discoverySection},
	} {
		if !want[s.name] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		e.logf("section %s (load %s)", s.name, bench.LoadAvg())
		md, err := s.fn(e)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		body.WriteString(md)
	}
	loadEnd := bench.LoadAvg()
	total := time.Since(e.start)
	e.logf("done in %s", total.Round(time.Second))

	var doc strings.Builder
	fmt.Fprintf(&doc, "# Benchmarks\n\n")
	fmt.Fprintf(&doc, "Generated by `make bench` (`go run ./bench/cmd/benchall -o bench/RESULTS.md`) on %s at commit `%s`; "+
		"the whole run took %s. Every figure below was measured in that one run; ratios compare measurements of the same run.\n\n",
		e.start.UTC().Format("2006-01-02 15:04 MST"), commit, total.Round(time.Second))
	if e.quick {
		fmt.Fprintf(&doc, "**-quick run: small inputs and 2 repetitions; these figures only check the harness.**\n\n")
	}
	fmt.Fprintf(&doc, "## Machine\n\n")
	for _, l := range bench.Machine() {
		fmt.Fprintf(&doc, "- %s\n", l)
	}
	fmt.Fprintf(&doc, "- Load average (1/5/15 min) at start: %s; at end: %s. ", loadStart, loadEnd)
	fmt.Fprintf(&doc, "The machine is shared: a load above the core count means other processes competed for the CPU "+
		"while this ran, which lowers wall-clock throughput (and parallel speedups) without changing the work done. "+
		"That is why most tables also give CPU time (user+system of the measured process), which the load inflates much less.\n\n")
	fmt.Fprintf(&doc, "Unless a table says otherwise, each figure is the median of %d repetitions, with the range (min–max) "+
		"in brackets; MB = 10^6 bytes.\n\n", e.reps)
	if len(e.targets) > 0 {
		fmt.Fprintf(&doc, "## Targets\n\n| target | goal | measured | ratio | verdict |\n|---|---|---|---|---|\n")
		for _, t := range e.targets {
			fmt.Fprintf(&doc, "| %s | %s | %s | %s | %s |\n", t.name, t.goal, t.measured, t.ratio, t.verdict)
		}
		doc.WriteString("\n")
	}
	if len(e.notes) > 0 {
		for _, n := range e.notes {
			fmt.Fprintf(&doc, "- %s\n", n)
		}
		doc.WriteString("\n")
	}
	doc.WriteString(body.String())
	summary := issue32Summary(e.targets, want, e.quick)
	doc.WriteString(summary)
	doc.WriteString(commandsText)
	// The summary on the terminal too: the verdicts without opening the file.
	fmt.Fprint(os.Stderr, "\n"+summary)

	if *outFlag == "-" {
		_, err = io.WriteString(os.Stdout, doc.String())
		return err
	}
	if err := atomicfile.WriteFile(*outFlag, []byte(doc.String())); err != nil {
		return err
	}
	e.logf("wrote %s", *outFlag)
	return nil
}

// ensureBinary returns the steadysweep binary to time: -bin, or one built
// from this tree into the work directory (a default of bin/steadysweep
// timed whatever was last built there: once a binary hours older than
// the tree).
func ensureBinary(e *env) (string, error) {
	if *binFlag != "" {
		fi, err := os.Stat(*binFlag)
		if err != nil || fi.IsDir() {
			return "", fmt.Errorf("-bin %s: not a binary (%v)", *binFlag, err)
		}
		return filepath.Abs(*binFlag)
	}
	out := filepath.Join(e.work, "steadysweep")
	e.logf("building %s", out)
	cmd := exec.Command("go", "build", "-o", out, "./cmd/steadysweep")
	// Static, as make build and the Dockerfile build it: a cgo build is
	// dynamic (pflag links net) and pays ld.so and libc at every start.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build steadysweep: %w", err)
	}
	return out, nil
}

func gitCommit() string {
	b, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}

// ensureBig generates the ~200 MB run once.
func ensureBig(e *env) error {
	if e.bigDir != "" {
		return nil
	}
	size := int64(200e6)
	if e.quick {
		size = 20e6
	}
	dir := filepath.Join(e.work, "big")
	e.logf("generating a %d MB log in %s", size/1e6, dir)
	var n int64
	g, err := bench.Time(func() error {
		var err error
		n, err = bench.GenerateRun(dir, bench.LogSpec(), size)
		return err
	})
	if err != nil {
		return err
	}
	e.bigDir, e.bigSize, e.bigGenS = dir, n, g.Wall
	return nil
}

const commandsText = "## Commands\n\n" +
	"```sh\n" +
	"# everything above (≈6 min on an idle 2-core machine, more under load); the reference comparison needs\n" +
	"# a copy of steady_state_diagnostics.py from mlcommons/endpoints @ 40b78bfe (not vendored):\n" +
	"STEADYSWEEP_REFERENCE=/path/to/steady_state_diagnostics.py make bench\n" +
	"go run ./bench/cmd/benchall -quick -o -            # a 1-minute check of the harness\n" +
	"go run ./bench/cmd/benchall -sections ingest,analyze -o /tmp/r.md   # some sections\n" +
	"STEADYSWEEP_REFERENCE=... go run ./bench/cmd/benchall -sections floor -o /tmp/floor.md   # section 6 alone (≈4 min)\n" +
	"STEADYSWEEP_REFERENCE=... go run ./bench/cmd/benchall -sections streamed -o /tmp/streamed.md   # the streamed layout: -reps rounds of 1 reference run and -streamed-ours (3) of each of ours\n" +
	"STEADYSWEEP_REFERENCE=... go run ./bench/cmd/benchall -sections streamed,startup,tokcache,longrun,sweeprows,discovery -o /tmp/i32.md   # every issue-32 target, summary at the end\n" +
	"make bench BENCHFLAGS=\"-quick -o /tmp/bench.md\"   # make bench's harness end to end on small inputs\n" +
	"go run ./bench/cmd/benchall -sections tokcache -o /tmp/tokcache.md   # the gpt-oss tokenizer cache: first and second zero-flag analyze\n" +
	"go run ./bench/cmd/benchall -sections startup -o /tmp/startup.md   # --version, a hello-world and a warm small analyze, 30 fresh processes each\n" +
	"go run ./bench/cmd/benchall -sections discovery -o /tmp/discovery.md   # a sweep of 50,000 directories against find\n" +
	"go run ./bench/cmd/benchall -sections sweeprows -o /tmp/sweeprows.md   # per config through a whole sweep (1001 configs minus 1)\n" +
	"go test -run '^$' -bench StreamedShape -cpu 1 -benchtime 5x ./columnar/endpoints/   # its decode rates in-process, beside the floor\n" +
	"go test -run '^$' -bench SampleIndex5M -benchtime 3x ./columnar/   # the 5 M-entry sample_idx_map.json in-process\n\n" +
	"# the HF side of section 2 alone (benchall installs the package into its cache dir):\n" +
	"npm install --prefix ~/.cache/steadysweep-bench/hf-node @anush008/tokenizers@0.6.0\n" +
	"node bench/scripts/hf_tokenize.js ~/.cache/steadysweep-bench/hf-node ../shared/tokenizers 5 gptoss\n\n" +
	"# the reference on one run, as section 3 runs it:\n" +
	"STEADYSWEEP_REFERENCE=... python3 bench/scripts/reference_shim.py RUN_DIR --json out.json\n\n" +
	"# cross-package Go micro-benchmarks (decoder on a generated log, Count on the shared texts,\n" +
	"# core.Run.Analyze per config), benchstat-friendly; -short uses a 20 MB log:\n" +
	"go test -run '^$' -bench . -count 6 ./bench/ | tee new.txt && benchstat old.txt new.txt\n" +
	"# per-package ones:\n" +
	"go test -run '^$' -bench 'Decode|BufioLineSplit' -benchtime 5x ./columnar/\n" +
	"go test -run '^$' -bench '^BenchmarkEncode' -cpu 1 -count 3 ./columnar/tokenizer\n" +
	"go test -run '^$' -bench . -cpu 1 ./core/ ./core/stats/\n" +
	"```\n"
