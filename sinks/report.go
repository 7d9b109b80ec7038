package sinks

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

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
	// Width is the line width in columns: the terminal's for a terminal,
	// 0 for DefaultReportWidth (files, pipes); narrower than
	// MinReportWidth is laid out at MinReportWidth.
	Width int
}

// Derivation is one derived setting and its source, e.g. {"tokenizer",
// "words", "--tokenizer"} or {"dataset size", "200", "run_meta.json"};
// Detail, when set, goes on a line of its own under the value (the file
// a tokenizer was loaded from).
type Derivation struct{ Name, Value, Source, Detail string }

// WriteReport writes the human-facing report of one analysis to w, at
// most in.Width columns wide (100 by default, at least 80), breaking lines
// between phrases: the headline (status, verdict, steady window,
// throughput, latency steady vs total, early stopping, anomaly, gap),
// then the diagnostics (CoV, trends, plateaus), the derived settings and
// the profile's caveat. Values the analysis does not have print as n/a.
func WriteReport(w io.Writer, in ReportInput) error {
	r := in.Result
	if r == nil {
		return errors.New("sinks: report: nil result")
	}
	b := &reportBuilder{p: palette{color: in.Color}, width: reportWidthOf(in.Width), buf: make([]byte, 0, reportSize)}
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
	if _, err := w.Write(b.bytes()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// writeTitle names the run and the shape of its super-pass series.
func writeTitle(b *reportBuilder, in ReportInput, o *core.Outcome) {
	r := in.Result
	name := OneLine(RunName(in.RunPath)) // names are data (textescape.go)
	if name == "" {
		name = "(unnamed run)"
	}
	b.line(b.p.paint(bold, "steadysweep analyze · "+name))
	if in.RunPath != "" {
		b.field("run", OneLine(in.RunPath))
	}
	nSP, nSamples := r.NSuperPasses, 0
	if t := r.WholeRun(); t != nil {
		nSP, nSamples = t.NSuperPasses, t.NSamples
	}
	shape := fmt.Sprintf("%s · warmup %d (%s) · %d post-warmup",
		SuperPassShape(nSP, r.NSuperPasses, nSamples, r.SuperpassSize), r.Warmup, orNA(r.WarmupMode), r.NPostWarmup)
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

// writeSettings prints the derived settings with their sources, the
// min-duration floor and where it came from, and the detector parameters
// that shape the result.
func writeSettings(b *reportBuilder, in ReportInput) {
	b.heading("settings")
	r := in.Result
	derived := append(slices.Clone(in.Derived), Derivation{Name: "min-duration floor", Value: floorValue(r),
		Source: floorSource(r)})
	writeDerivations(b, derived)
	p := r.Params
	bounds := make([]string, len(r.CovBounds))
	for i, c := range r.CovBounds {
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
	b.field("detector", strings.Join([]string{"compat " + orNA(string(p.Compat)), "method " + orNA(string(p.Method)),
		"trend gate " + orNA(string(p.TrendGate)), fmt.Sprintf("alpha %g", p.Alpha), fmt.Sprintf("min trend n %d", p.MinTrendN),
		"CoV bounds " + orNA(strings.Join(bounds, ", ")), "window sizes " + orNA(strings.Join(sizes, ", ")),
		"min duration " + minDur}, phraseSep))
}

// writeDerivations prints one setting a line: name, value and (source)
// in columns; a row too wide for the line puts its source on the next
// line under the value, and a detail goes on a line of its own there.
func writeDerivations(b *reportBuilder, ds []Derivation) {
	ds = slices.Clone(ds)
	for i := range ds { // names are data: a source naming a file stays on its line
		ds[i].Value, ds[i].Source, ds[i].Detail = OneLine(ds[i].Value), OneLine(ds[i].Source), OneLine(ds[i].Detail)
	}
	nameW := 0
	for _, d := range ds {
		nameW = max(nameW, utf8.RuneCountInString(d.Name))
	}
	under := strings.Repeat(" ", 2+nameW+2)
	fits := func(d Derivation, valW int) bool {
		return len(under)+valW+2+utf8.RuneCountInString(orNA(d.Source))+2 <= b.width
	}
	valW := 0
	for _, d := range ds {
		if v := utf8.RuneCountInString(orNA(d.Value)); fits(d, v) {
			valW = max(valW, v)
		}
	}
	for _, d := range ds {
		lead := "  " + d.Name + strings.Repeat(" ", nameW-utf8.RuneCountInString(d.Name)) + "  "
		value, src := orNA(d.Value), b.p.paint(dim, "("+orNA(d.Source)+")")
		if v := utf8.RuneCountInString(value); v <= valW && fits(d, valW) {
			b.put(lead + value + strings.Repeat(" ", valW-v) + "  " + src)
		} else {
			b.putWrapped(lead+value, under)
			b.putWrapped(under+src, under+" ")
		}
		if d.Detail != "" {
			b.putWrapped(under+b.p.paint(dim, d.Detail), under)
		}
	}
}

// floorValue is the min-duration floor the analysis used.
func floorValue(r *core.Result) string {
	if !(r.MinDurFloorS > 0) {
		return notAvailable
	}
	return seconds(r.MinDurFloorS)
}

// floorSource says where the min-duration floor came from.
func floorSource(r *core.Result) string {
	p := r.Params
	switch {
	case r.MinDurFloorFromRun:
		return "config.yaml min_duration_ms"
	case p.Compat == core.CompatReference && p.MinDurFloorS == core.DefaultMinDurFloorS:
		return "the reference's fixed floor"
	case p.MinDurFloorS > 0:
		return "--min-duration-floor"
	case r.RunInfo().MinDurationS > core.DefaultMinDurFloorS:
		return "MLPerf's 600 s; config.yaml min_duration_ms " + seconds(r.RunInfo().MinDurationS) + " is longer"
	}
	if f := r.RunInfo().SourceFormat; f != "" && !strings.HasPrefix(f, "endpoints") {
		// Another tool's log has no endpoints config.yaml to set it.
		return "default: a " + f + " log has no min_duration_ms"
	}
	return "default: config.yaml sets no min_duration_ms"
}
