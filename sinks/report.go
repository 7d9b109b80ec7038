package sinks

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/steadysweep/steadysweep/core"
)

// ReportInput is everything the text report needs besides the Result.
type ReportInput struct {
	Result  *core.Result
	RunPath string
	// Derived are the settings the analysis derived and where each came
	// from, in the order to print them.
	Derived []Derivation
	// Color turns on ANSI colour (the caller decides: a terminal and
	// NO_COLOR unset).
	Color bool
}

// Derivation is one derived setting and its source, e.g. {"tokenizer",
// "words", "--tokenizer"} or {"dataset size", "200", "run_meta.json"}.
type Derivation struct{ Name, Value, Source string }

// WriteReport writes the human-facing report of one analysis to w, at
// most 100 columns wide: the headline (status, verdict, steady window,
// throughput, latency steady vs total, early stopping, anomaly, gap),
// then the diagnostics (CoV, trends, plateaus), the derived settings and
// the profile's caveat. Values the analysis does not have print as n/a.
func WriteReport(w io.Writer, in ReportInput) error {
	r := in.Result
	if r == nil {
		return errors.New("sinks: report: nil result")
	}
	b := &reportBuilder{p: palette{color: in.Color}}
	o := outcomeOf(r)
	writeTitle(b, in, &o)
	writeHeadline(b, r, &o)
	if r.Path == core.PathNATL && r.NATL != nil {
		writeNATL(b, r.NATL)
	} else if err := writeDiagnostics(b, r); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	writeSettings(b, in)
	if c := r.Caveat(); c != "" {
		b.heading("caveat")
		b.line("  " + b.p.paint(warn, c))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// writeTitle names the run and the shape of its super-pass series.
func writeTitle(b *reportBuilder, in ReportInput, o *core.Outcome) {
	r := in.Result
	name := RunName(in.RunPath)
	if name == "" {
		name = "(unnamed run)"
	}
	b.line(b.p.paint(bold, "steadysweep analyze · "+name))
	if in.RunPath != "" {
		b.field("run", in.RunPath)
	}
	shape := fmt.Sprintf("%d super-passes of %d samples · warmup %d (%s) · %d post-warmup",
		r.NSuperPasses, r.SuperpassSize, r.Warmup, orNA(r.WarmupMode), r.NPostWarmup)
	if r.Path == core.PathNATL {
		shape = "agentic NATL path (per-trajectory throughput)"
	}
	b.field("profile", r.Profile.Name+" · "+shape)
	if o.Partial {
		b.field("", b.p.paint(warn, "partial log: the run was truncated or interrupted"))
	}
}

// RunName is the name of the run at path, a run directory or its events
// file: the directory's name, skipping the events file and the client/
// directory the events file may sit in ("" for an empty path).
func RunName(path string) string {
	if path == "" {
		return ""
	}
	p := filepath.Clean(path)
	if strings.HasPrefix(filepath.Base(p), "events.jsonl") {
		p = filepath.Dir(p)
	}
	if filepath.Base(p) == "client" {
		p = filepath.Dir(p)
	}
	return filepath.Base(p)
}

// statusStyle colours a coverage status: only a windowable run is good.
func statusStyle(status core.Status) style {
	switch status {
	case core.StatusWindowable:
		return good
	case "":
		return plain
	case core.StatusError:
		return bad
	}
	return warn
}

// verdictStyle colours a verdict by what it means for the numbers.
func verdictStyle(verdict core.Verdict) style {
	switch verdict {
	case core.VerdictSteadyState:
		return good
	case core.VerdictDriftingUp, core.VerdictDriftingDown:
		return warn
	}
	return bad
}

// writeSettings prints the derived settings with their sources and the
// detector parameters that shape the result.
func writeSettings(b *reportBuilder, in ReportInput) {
	b.heading("settings")
	t := &textTable{indent: "  "}
	for _, d := range in.Derived {
		t.add(txt(d.Name), txt(orNA(d.Value)), cell{"(" + orNA(d.Source) + ")", dim})
	}
	b.table(t)
	p := in.Result.Params
	bounds := make([]string, len(in.Result.CovBounds))
	for i, c := range in.Result.CovBounds {
		bounds[i] = fmt.Sprint(c)
	}
	sizes := make([]string, len(p.WindowSizes))
	for i, s := range p.WindowSizes {
		sizes[i] = fmt.Sprint(s)
	}
	minDur := "off"
	if p.MinDuration {
		minDur = "on"
	}
	b.field("detector", fmt.Sprintf("compat %s · method %s · trend gate %s · alpha %g · min trend n %d",
		orNA(p.Compat), orNA(p.Method), orNA(p.TrendGate), p.Alpha, p.MinTrendN))
	b.field("", fmt.Sprintf("CoV bounds %s · window sizes %s · min duration %s",
		orNA(strings.Join(bounds, ", ")), orNA(strings.Join(sizes, ", ")), minDur))
}
