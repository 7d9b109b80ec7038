package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// reportText renders steadysweep's own report of res: colour only on a
// terminal with NO_COLOR unset.
func reportText(res *core.Result, l *loadedRun, stdout any) (string, error) {
	var b strings.Builder
	err := sinks.WriteReport(&b, sinks.ReportInput{
		Result:  res,
		RunPath: l.run.EventsPath,
		Derived: derivations(res, l),
		Color:   colorWanted(stdout),
	})
	return b.String(), err
}

// derivations lists the settings that were derived, and from where, so the
// report can say so.
func derivations(res *core.Result, l *loadedRun) []sinks.Derivation {
	size := "unresolved"
	if l.info.DatasetSize > 0 {
		size = strconv.Itoa(l.info.DatasetSize)
	}
	src := l.info.DatasetSizeSource
	if src == "" {
		src = "none (pass --dataset-size)"
	}
	lp := l.info.LoadPattern
	if lp == "" {
		lp = "absent → concurrency"
	}
	d := []sinks.Derivation{
		{Name: "tokenizer", Value: l.counter.Identity(), Source: l.tokSource},
		{Name: "dataset size", Value: size, Source: src},
		{Name: "profile", Value: res.Profile.Name, Source: "load pattern " + lp},
	}
	if l.cacheHit {
		d = append(d, sinks.Derivation{Name: "columns", Value: "from cache", Source: "--cache-dir"})
	}
	return d
}

// colorWanted reports whether w is a terminal and NO_COLOR is unset
// (https://no-color.org).
func colorWanted(w any) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	return isTerminal(f)
}

// isTerminal reports whether f is a character device (a terminal), without
// a dependency on x/term.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func writePlot(path, runPath string, res *core.Result) error {
	return sinks.WriteNamedPlot(path, sinks.RunName(runPath), res)
}
