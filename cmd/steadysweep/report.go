package main

import (
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// reportText renders steadysweep's own report of res, with ANSI colour
// when color is set (colorWanted: a terminal, never a file).
func reportText(res *core.Result, l *loadedRun, color bool) (string, error) {
	var b strings.Builder
	err := sinks.WriteReport(&b, sinks.ReportInput{
		Result:  res,
		RunPath: l.run.EventsPath,
		Derived: derivations(res, l),
		Color:   color,
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
	sizeName := "dataset size"
	if f := columnar.Format(l.info.SourceFormat); f != "" && !f.HasDatasetPass() {
		sizeName = "super-pass size"
	}
	tok := l.counter.Identity()
	if l.info.TokensRecorded {
		tok = "none (token counts recorded in the log)"
	}
	d := []sinks.Derivation{
		{Name: "source", Value: strings.TrimSpace(l.info.SourceFormat + " " + l.info.ToolVersion), Source: l.info.SourcePath},
		{Name: "tokenizer", Value: tok, Source: l.tokSource},
		{Name: sizeName, Value: size, Source: src},
		{Name: "profile", Value: res.Profile.Name, Source: "load pattern " + lp},
	}
	if l.cacheHit {
		d = append(d, sinks.Derivation{Name: "columns", Value: "from cache", Source: "--cache-dir"})
	}
	return d
}
