// Command earlieststop evaluates the earliest-stop rule (core.EarliestStopOf)
// on generated planted-truth corpora:
//
//	nice go run ./bench/cmd/earlieststop -seeds 1,2      (240 runs)
//
// Each seed is one synth.AccuracySuite (120 runs over the accuracy classes:
// clean, staircase, ramp-only, drift). Every run is generated into a
// temporary directory, decoded (words tokenizer), analysed in full with the
// default parameters, and its earliest stop found. With -withdrawals every
// prefix after the stop is analysed too, and a stop some later prefix does
// not certify as a steady state counts as withdrawn.
//
// It prints, per class: runs, full runs that certify a window (found),
// stops, agreement of TPOT p50 and system TPS with the full run (inside the
// stop's intervals), withdrawals (the full run certifies nothing: wdrawn;
// a later prefix certifies nothing or values outside the stop's CIs:
// later), the median stop_saved_frac over all runs (0 without a stop) and
// over the stopped ones (med_stop), and the prefixes analysed; then stops
// on runs with no planted steady state, and the CPU time spent.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

var (
	seedsFlag    = flag.String("seeds", "1,2", "comma list of AccuracySuite seeds (120 runs each)")
	jobsFlag     = flag.Int("jobs", 2, "runs analysed at a time")
	withdrawFlag = flag.Bool("withdrawals", true, "analyse every prefix after the stop and count withdrawals")
	confirmFlag  = flag.Int("confirm", core.DefaultStopTarget().Confirm, "consecutive certifying prefixes a stop needs")
	hwFlag       = flag.Float64("halfwidth", core.DefaultStopTarget().MaxRelHalfWidth, "relative half-width target")
	verboseFlag  = flag.Bool("v", false, "print one line per run")
)

// outcome is one run's evaluation.
type outcome struct {
	name, class, category string
	steady                bool // planted: a genuine steady region (clean, staircase)
	fullVerdict           core.Verdict
	es                    core.EarliestStop
	laterWithdrawn        int // later prefixes that do not certify a steady state (-1: not checked)
	checked               int
	cpu                   time.Duration // of the earliest-stop search (plus the withdrawal scan apart)
	fullCPU               time.Duration
}

func main() {
	flag.Parse()
	var seeds []uint64
	for _, f := range strings.Split(*seedsFlag, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(f), 10, 64)
		if err != nil {
			log.Fatalf("earlieststop: -seeds: %v", err)
		}
		seeds = append(seeds, v)
	}
	t := core.DefaultStopTarget()
	t.Confirm, t.MaxRelHalfWidth, t.Exhaustive = *confirmFlag, *hwFlag, true
	tmp, err := os.MkdirTemp("", "earlieststop-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	var outs []outcome
	for _, seed := range seeds {
		runs := synth.AccuracySuite(seed)
		res := make([]outcome, len(runs))
		var g errgroup.Group
		g.SetLimit(max(*jobsFlag, 1))
		for i, r := range runs {
			g.Go(func() error {
				dir := filepath.Join(tmp, fmt.Sprintf("s%d_%s", seed, r.Name))
				defer os.RemoveAll(dir)
				o, err := evaluate(dir, r, t)
				if err != nil {
					return fmt.Errorf("%s: %w", r.Name, err)
				}
				o.name = fmt.Sprintf("s%d/%s", seed, r.Name)
				res[i] = o
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			log.Fatalf("earlieststop: %v", err)
		}
		outs = append(outs, res...)
	}
	report(outs, t)
}

func evaluate(dir string, r synth.SuiteRun, t core.StopTarget) (outcome, error) {
	o := outcome{class: r.Class, category: r.Category, laterWithdrawn: -1,
		steady: r.Category == synth.CategoryClean || r.Category == synth.CategoryStaircase}
	if _, err := synth.Generate(dir, r.Spec); err != nil {
		return o, err
	}
	res, err := columnar.ResolveRun(context.Background(), dir)
	if err != nil {
		return o, err
	}
	l, err := columnar.Load(context.Background(), res, columnar.IngestOptions{Counter: tokenizer.Words{}, Workers: 1})
	if err != nil {
		return o, err
	}
	run := core.NewRun(&l.Samples, l.Info)
	p := core.DefaultParams()
	c0 := cpuTime()
	full, err := run.Analyze(p)
	if err != nil {
		return o, err
	}
	c1 := cpuTime()
	o.fullCPU = c1 - c0
	o.fullVerdict = full.Outcome().Verdict
	o.es, err = run.EarliestStopOf(p, full, t)
	if err != nil {
		return o, err
	}
	o.cpu = cpuTime() - c1
	if *withdrawFlag && o.es.Found {
		o.laterWithdrawn = 0
		n := l.Samples.Len() / full.SuperpassSize
		for k := o.es.Stop.NSuperPasses + 1; k <= n; k++ {
			c, err := run.CheckPrefix(p, full.SuperpassSize, k, t)
			if err != nil {
				return o, err
			}
			o.checked++
			if !c.Found() || !inside(c.TPSSystem, o.es.Stop.TPSSystemCI) || !inside(c.TPOTP50Ns, o.es.Stop.TPOTP50CI) {
				o.laterWithdrawn++
			}
		}
	}
	if *verboseFlag {
		fmt.Fprintf(os.Stderr, "%-40s full=%-14s stop=%v k=%d/%d at=%.0fs saved=%.3f agrees=%v withdrawn=%v later=%d/%d eval=%d tps %.1f [%.1f %.1f] full %.1f; tpot %.0f [%.0f %.0f] full %.0f %s\n",
			r.Name, o.fullVerdict, o.es.Found, o.es.Stop.NSuperPasses, full.NSuperPasses, o.es.StopAtS, o.es.SavedFrac, o.es.Agrees,
			o.es.Withdrawn, o.laterWithdrawn, o.checked, o.es.Evaluated,
			o.es.Stop.TPSSystem, o.es.Stop.TPSSystemCI[0], o.es.Stop.TPSSystemCI[1], o.es.Full.TPSSystem,
			o.es.Stop.TPOTP50Ns, o.es.Stop.TPOTP50CI[0], o.es.Stop.TPOTP50CI[1], o.es.Full.TPOTP50Ns, o.es.Reason)
	}
	return o, nil
}

// cpuTime is the process's user+system CPU time (both jobs' share: the
// totals are of the whole evaluation).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func report(outs []outcome, t core.StopTarget) {
	fmt.Printf("earliest-stop rule: half-widths ≤ %.2f%%, confirm %d, %d runs\n\n", 100*t.MaxRelHalfWidth, t.Confirm, len(outs))
	classes := []string{}
	for _, o := range outs {
		if !slices.Contains(classes, o.class) {
			classes = append(classes, o.class)
		}
	}
	fmt.Printf("%-16s %-10s %5s %6s %6s %6s %6s %6s %9s %9s %9s\n", "class", "category", "runs", "found", "stops",
		"agree", "wdrawn", "later", "med_saved", "med_stop", "prefixes")
	var all []outcome
	for _, c := range append(classes, "ALL") {
		var g []outcome
		for _, o := range outs {
			if o.class == c || c == "ALL" {
				g = append(g, o)
			}
		}
		if c == "ALL" {
			all = g
		}
		row(c, g)
	}
	var every, steady tally
	var fullCPU, esCPU time.Duration
	for _, o := range all {
		fullCPU += o.fullCPU
		esCPU += o.cpu
		every.add(o)
		if o.steady {
			steady.add(o)
		} else if o.es.Found {
			fmt.Printf("STOP ON A RUN WITH NO STEADY STATE: %s (%s)\n", o.name, o.class)
		}
	}
	fmt.Printf("\nstops on runs with no planted steady state: %d\n", every.stops-steady.stops)
	fmt.Printf("steady runs stopped whose full-run TPOT p50 and system TPS lie in the stop's CIs: %d/%d (%.1f%%)\n",
		steady.agree, steady.stops, pct(steady.agree, steady.stops))
	fmt.Printf("withdrawn (the full run certifies no window): %d/%d (%.1f%%); some later prefix certifies no window or one outside the stop's CIs: %d/%d (%.1f%%)\n",
		every.withdrawn, every.stops, pct(every.withdrawn, every.stops), every.later, every.stops, pct(every.later, every.stops))
	fmt.Printf("CPU: full analyses %.2f s, earliest-stop searches %.2f s (%d prefixes; %.1f× the full analyses)\n",
		fullCPU.Seconds(), esCPU.Seconds(), every.prefixes, esCPU.Seconds()/math.Max(fullCPU.Seconds(), 1e-9))
}

// tally counts a group of outcomes: prefixes evaluated, stops, and of the
// stops those whose CIs hold the full run's numbers, those withdrawn by
// the full run and those a later prefix withdraws.
type tally struct{ prefixes, stops, agree, withdrawn, later int }

func (t *tally) add(o outcome) {
	t.prefixes += o.es.Evaluated
	if !o.es.Found {
		return
	}
	t.stops++
	if o.es.Agrees {
		t.agree++
	}
	if o.es.Withdrawn {
		t.withdrawn++
	}
	if o.laterWithdrawn > 0 {
		t.later++
	}
}

func row(name string, g []outcome) {
	var ss int
	var t tally
	var saved, savedStopped []float64
	cat := ""
	for _, o := range g {
		cat = o.category
		if o.es.Full.Found() {
			ss++
		}
		t.add(o)
		if o.es.Found {
			saved = append(saved, o.es.SavedFrac)
			savedStopped = append(savedStopped, o.es.SavedFrac)
		} else {
			saved = append(saved, 0)
		}
	}
	if name == "ALL" {
		cat = ""
	}
	medStop := math.NaN()
	if len(savedStopped) > 0 {
		medStop = median(savedStopped)
	}
	fmt.Printf("%-16s %-10s %5d %6d %6d %6d %6d %6d %9.3f %9.3f %9d\n", name, cat, len(g), ss, t.stops, t.agree, t.withdrawn, t.later,
		median(saved), medStop, t.prefixes)
}

func inside(v float64, ci [2]float64) bool { return v >= ci[0] && v <= ci[1] }

// median of xs (0 for none); runs without a stop count as 0 saved.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

func pct(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return 100 * float64(a) / float64(b)
}
