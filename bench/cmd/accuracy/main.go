// Command accuracy scores steadysweep's detection accuracy against planted
// truth, our defaults and --compat reference side by side:
//
//	go run ./bench/cmd/accuracy -o accuracy-out/REPORT.md     (what `make accuracy` runs)
//
// Two corpora: the shared accuracy set (../shared/accuracy, 41 runs of an
// independent generator) and our own suite (synth.AccuracySuite, 120 runs
// of the same classes at other sizes, generated once into -work). Every run
// is analysed with `steadysweep analyze RUN --tokenizer words --no-cache
// --json OUT` (plus --compat reference for the reference columns, plus -args),
// at most -jobs analyses at a time. Both corpora are scored by the shared
// judge itself: `python3 judge.py CORPUS OUT` gives the gate line, and its
// own judge_run (imported from judge.py) gives the per-run rows the extra
// breakdowns (short-tail staircases, classes) are counted from, so every
// number uses judge.py's definitions. The suite carries truth/NAME.json in
// judge.py's schema (synth.JudgeTruth).
//
// -detection N adds the issue-29 detection suite (synth.DetectionSuite, N
// runs a class, generated into -work/detection-sSEED), scored by
// synth.ScoreDetection against its planted truth (detection.go); with
// -corpora "" it is the only scoring:
//
//	go run ./bench/cmd/accuracy -corpora "" -detection 10 -seed 29 -compat steadysweep,reference
//
// Any other -corpora entry is a directory in judge.py's layout (runs/ and
// truth/, e.g. written by synth.GenerateSuite), scored the same way.
//
// Outputs under -work: suite/ (the generated corpus), out/CORPUS/COMPAT/
// (the JSON results and judge.txt, judge.py's full table).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
)

var (
	outFlag    = flag.String("o", "-", "Markdown report to write (- for stdout)")
	workFlag   = flag.String("work", "accuracy-out", "work directory: the generated suite and the analysis outputs")
	binFlag    = flag.String("bin", "bin/steadysweep", "the steadysweep binary")
	sharedFlag = flag.String("shared", "", "the shared accuracy set (default: ../shared/accuracy from the module root, or $STEADYSWEEP_SHARED/accuracy)")
	seedFlag   = flag.Uint64("seed", 1, "seed of the generated suite")
	jobsFlag   = flag.Int("jobs", 2, "analyses run at a time")
	compatFlag = flag.String("compat", "steadysweep,reference", "comma list of --compat values to score")
	argsFlag   = flag.String("args", "", "extra analyze flags for every run (space-separated)")
	corpFlag   = flag.String("corpora", "shared,suite", "comma list of corpora: shared, suite, or the path of a directory holding runs/ and truth/ in judge.py's layout")
	pythonFlag = flag.String("python", "python3", "Python 3.11+ interpreter for judge.py")
	labelFlag  = flag.String("label", "", "label of this scoring in the report title")
	detFlag    = flag.Int("detection", 0, "also score the issue-29 detection suite (synth.DetectionSuite, this many runs a class, at least 10; 0 = off)")
)

func main() {
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		log.Fatalf("accuracy: %v", err)
	}
}

func run(ctx context.Context) error {
	shared, err := sharedAccuracyDir(*sharedFlag)
	if err != nil {
		return err
	}
	judgePy := filepath.Join(shared, "judge.py")
	if _, err := os.Stat(*binFlag); err != nil {
		return fmt.Errorf("binary %s: %w (run make build)", *binFlag, err)
	}
	var extra []string
	if *argsFlag != "" {
		extra = strings.Fields(*argsFlag)
	}
	var columns []column
	for _, corpus := range splitList(*corpFlag) {
		dir := shared
		switch corpus {
		case "shared":
		case "suite":
			dir = filepath.Join(*workFlag, "suite")
			if err := ensureSuite(dir, *seedFlag, os.Stderr); err != nil {
				return err
			}
		default:
			dir = corpus
			if _, err := os.Stat(filepath.Join(dir, "truth")); err != nil {
				return fmt.Errorf("-corpora: %q is not shared, suite or a directory with runs/ and truth/: %w", corpus, err)
			}
			corpus = filepath.Base(filepath.Clean(dir))
		}
		for _, compat := range splitList(*compatFlag) {
			out := filepath.Join(*workFlag, "out", corpus, compat)
			args := append([]string{"--compat", compat}, extra...)
			if err := analyzeCorpus(ctx, *binFlag, filepath.Join(dir, "runs"), out, args, *jobsFlag, os.Stderr); err != nil {
				return err
			}
			gate, err := runJudge(ctx, *pythonFlag, judgePy, dir, out)
			if err != nil {
				return err
			}
			rows, err := judgeRows(ctx, *pythonFlag, judgePy, dir, out)
			if err != nil {
				return err
			}
			columns = append(columns, column{corpus: corpus, compat: compat, gate: gate, score: scoreRows(rows), rows: rows})
		}
	}
	report := ""
	if len(columns) > 0 {
		report = renderReport(columns, reportMeta{label: *labelFlag, args: *argsFlag, seed: *seedFlag, bin: *binFlag})
	}
	if *detFlag > 0 {
		det, err := runDetection(ctx, *workFlag, *seedFlag, *detFlag, splitList(*compatFlag), extra)
		if err != nil {
			return err
		}
		report += renderDetection(det, *seedFlag)
	}
	return writeOut(*outFlag, report, os.Stdout)
}

// sharedAccuracyDir resolves the shared accuracy set.
func sharedAccuracyDir(flagValue string) (string, error) {
	candidates := []string{flagValue}
	if flagValue == "" {
		if env := os.Getenv("STEADYSWEEP_SHARED"); env != "" {
			candidates = []string{filepath.Join(env, "accuracy")}
		} else {
			candidates = []string{filepath.Join("..", "shared", "accuracy")}
		}
	}
	for _, c := range candidates {
		if _, err := os.Stat(filepath.Join(c, "judge.py")); err == nil {
			return c, nil
		}
	}
	return "", fmt.Errorf("no judge.py under %s (pass -shared)", strings.Join(candidates, ", "))
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func writeOut(path, text string, stdout io.Writer) error {
	if path == "-" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return nil
}
