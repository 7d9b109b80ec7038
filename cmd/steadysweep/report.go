package main

import (
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sweep"
)

// reportText renders steadysweep's own report of res, with ANSI colour
// when color is set (colorWanted: a terminal, never a file), width
// columns wide (0: the default 100).
func reportText(res *core.Result, l *sweep.LoadedRun, color bool, width int) (string, error) {
	var b strings.Builder
	err := sinks.WriteReport(&b, sinks.ReportInput{
		Result:  res,
		RunPath: l.Run.EventsPath,
		Derived: derivations(res, l),
		Color:   color,
		Width:   width,
	})
	return b.String(), err
}

// derivations lists the settings that were derived, and from where, so the
// report can say so.
func derivations(res *core.Result, l *sweep.LoadedRun) []sinks.Derivation {
	size := "unresolved"
	if l.Info.DatasetSize > 0 {
		size = strconv.Itoa(l.Info.DatasetSize)
	}
	src := l.Info.DatasetSizeSource
	if src == "" {
		src = "none (pass --dataset-size)"
	}
	lp := l.Info.LoadPattern
	if lp == "" {
		lp = "absent → concurrency"
	}
	sizeName := "dataset size"
	if f := columnar.Format(l.Info.SourceFormat); f != "" && !f.HasDatasetPass() {
		sizeName = "super-pass size"
	}
	tok := sinks.Derivation{Name: "tokenizer", Value: l.Resolution.Name, Source: l.Resolution.Source}
	if id := l.Counter.Identity(); l.Resolution.Path != "" {
		tok.Detail = l.Resolution.Path + " · " + shortIdentity(id)
	}
	if l.Info.TokensRecorded {
		tok = sinks.Derivation{Name: "tokenizer", Value: "none", Source: "token counts recorded in the log"}
	}
	d := []sinks.Derivation{
		{Name: "source", Value: strings.TrimSpace(l.Info.SourceFormat + " " + l.Info.ToolVersion), Source: l.Info.SourcePath},
		tok,
		{Name: sizeName, Value: size, Source: src},
		{Name: "profile", Value: res.Profile.Name, Source: "load pattern " + lp},
	}
	if l.CacheHit {
		d = append(d, sinks.Derivation{Name: "columns", Value: "from cache", Source: "--cache-dir"})
	}
	return d
}

// shortIdentity is a tokenizer identity ("sha256:" and 64 hex digits)
// cut to 12 digits for reading; the full one keys the cache.
func shortIdentity(id string) string {
	if len(id) > len("sha256:")+12 {
		return id[:len("sha256:")+12] + "…"
	}
	return id
}
