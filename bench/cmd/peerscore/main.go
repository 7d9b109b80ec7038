// Command peerscore scores sweep presets — our default, the peer detectors
// and the baselines — on the issue-29 detection suite
// (synth.DetectionSuite) with its own scorer (synth.ScoreDetection):
//
//	go run ./bench/cmd/peerscore -work /tmp/detection -seed 1 -per-class 10
//
// The suite is generated once into -work (runs/ and truth/ in judge.py's
// layout; reused when present), every run is read with the sweep's
// default loader (word counts) and analysed under each preset by the
// sweep's analyzer, and each preset's score is printed overall and per
// class: found on genuine plateaus, |TPOT p50 / true level − 1|,
// confident-wrong, ≥ 2 % steps flagged and straddled, false shifts, and
// the targets of issue 29 it misses.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sweep"
)

var (
	workFlag    = flag.String("work", "detection-out", "directory of the generated suite (reused when it holds runs/)")
	seedFlag    = flag.Uint64("seed", 1, "seed of the suite")
	perFlag     = flag.Int("per-class", 10, "runs per class (at least 10)")
	presetsFlag = flag.String("presets", "default,aiperf,vllm-bench,sglang,guidellm,total,fixed-pct,mser5,reference", "comma list of sweep presets")
)

func main() {
	flag.Parse()
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatalf("peerscore: %v", err)
	}
}

func run(ctx context.Context, w *os.File) error {
	runs := synth.DetectionSuite(*seedFlag, *perFlag)
	if _, err := os.Stat(filepath.Join(*workFlag, "runs")); err != nil {
		sr := make([]synth.SuiteRun, len(runs))
		for i := range runs {
			sr[i] = runs[i].SuiteRun
		}
		if err := synth.GenerateSuite(*workFlag, sr, true, nil); err != nil {
			return err
		}
	}
	presets := strings.Split(*presetsFlag, ",")
	load := sweep.DefaultLoader(sweep.LoaderOptions{Counter: tokenizer.Words{}})
	obs := make([][]synth.DetectionObs, len(presets))
	for _, run := range runs {
		dir := filepath.Join(*workFlag, "runs", run.Name)
		refs, errs := corpora.Discover([]string{dir}, nil, nil)
		if len(errs) > 0 || len(refs) != 1 {
			return fmt.Errorf("%s: %d runs found, %v", dir, len(refs), errs)
		}
		lr, err := load(ctx, refs[0])
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		for i, name := range presets {
			p, err := sweep.Preset(name)
			if err != nil {
				return err
			}
			r, err := sweep.DefaultAnalyzer(lr, p)
			if err != nil {
				return fmt.Errorf("%s under %s: %w", dir, name, err)
			}
			o := sweep.OutcomeOf(r)
			obs[i] = append(obs[i], synth.DetectionObs{Found: o.Found, WindowLo: o.WindowStartSP, WindowHi: o.WindowEndSP,
				TPOTP50Ns: o.SteadyTPOTP50Ns, Anomaly: o.AnomalyDetected, DeltaPct: o.AnomalyDeltaPct, ChangePointSP: o.ChangePointSP})
		}
	}
	fmt.Fprintf(w, "detection suite seed %d: %d runs, %d classes\n", *seedFlag, len(runs), len(synth.DetectionClasses()))
	for i, name := range presets {
		all, byClass := synth.ScoreDetection(runs, obs[i])
		fmt.Fprintf(w, "\n%s: %s\n  misses: %s\n", name, all.Line(), strings.Join(all.Gate(), "; "))
		classes := make([]string, 0, len(byClass))
		for c := range byClass {
			classes = append(classes, c)
		}
		slices.Sort(classes)
		for _, c := range classes {
			fmt.Fprintf(w, "  %-16s %s\n", c, byClass[c].Line())
		}
	}
	return nil
}
