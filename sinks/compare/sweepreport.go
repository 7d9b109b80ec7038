package compare

import (
	"fmt"
	"io"
	"strings"

	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
)

// outcomeOrder is the order outcomes are counted and listed in.
var outcomeOrder = []string{Faster, Slower, Mixed, Unchanged, NoCompare}

// Headline is the summary line: how many pairs got faster, slower or
// stayed unchanged beyond noise.
func (c *SweepComparison) Headline() string {
	by, _, _ := c.Summary()
	var parts []string
	for _, o := range outcomeOrder {
		parts = append(parts, fmt.Sprintf("%d %s", by[o], o))
	}
	return fmt.Sprintf("%d (run, config) pairs in both: %s", len(c.Pairs), strings.Join(parts, ", "))
}

// WriteText writes the summary first, then one line per pair that is not
// unchanged (and per pair whose verdict or status changed), each at most
// Width columns.
func (c *SweepComparison) WriteText(w io.Writer) error {
	var b strings.Builder
	line := func(s string) { b.WriteString(strings.TrimRight(fit(s, Width), " ")); b.WriteByte('\n') }
	line(c.Headline())
	_, vc, sc := c.Summary()
	line(fmt.Sprintf("verdict changed in %d, status in %d; %d pairs only in A, %d only in B", vc, sc, len(c.OnlyA), len(c.OnlyB)))
	line("A  " + c.A.Dir)
	line("B  " + c.B.Dir)
	if hint := c.noPairHint(); hint != "" {
		line(hint)
	}
	// Pairs that cannot be compared, and changed nothing else, are counted
	// by reason, one line per reason: thousands of identical lines
	// would bury the pairs that did change.
	var reasons []string
	cannot := map[string]int{}
	shown := 0
	for i := range c.Pairs {
		p := &c.Pairs[i]
		o := p.Outcome()
		if o == Unchanged && !p.VerdictChanged() && !p.StatusChanged() {
			continue
		}
		if o == NoCompare && !p.VerdictChanged() && !p.StatusChanged() {
			r := pairDetail(p, o)
			if cannot[r] == 0 {
				reasons = append(reasons, r)
			}
			cannot[r]++
			continue
		}
		if shown == 0 {
			line("")
		}
		shown++
		detail := pairDetail(p, o)
		if ch := p.Changes(); ch != "" {
			detail = ch + "; " + detail
		}
		line(fmt.Sprintf("%-14s %s  %s  %s", o, fitLeft(p.RunRel, 36), p.ConfigLabel, detail))
	}
	if len(reasons) > 0 {
		line("")
	}
	for _, r := range reasons {
		line(fmt.Sprintf("%s cannot compare: %s", sinks.Count(cannot[r], "pair"), r))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// noPairHint explains a comparison with no pair in both sweeps although
// both have rows: pairs match on run_id and config_id, and when the
// sweeps share runs their configs differ ("" when there are pairs).
func (c *SweepComparison) noPairHint() string {
	if len(c.Pairs) > 0 || len(c.OnlyA) == 0 || len(c.OnlyB) == 0 {
		return ""
	}
	runsA := map[string]bool{}
	for _, k := range c.OnlyA {
		runsA[k.RunID] = true
	}
	shared := map[string]bool{}
	for _, k := range c.OnlyB {
		if runsA[k.RunID] {
			shared[k.RunID] = true
		}
	}
	if len(shared) == 0 {
		return "hint: pairs match on run_id and config_id, and the sweeps share no run"
	}
	return fmt.Sprintf("hint: pairs match on run_id and config_id; the sweeps share %d runs but no config_id: "+
		"sweep both with the same --preset, --grid and --set", len(shared))
}

// pairDetail is what a pair's line says after its outcome.
func pairDetail(p *Pair, o string) string {
	var better, worse []MetricDiff
	reason := ""
	for _, d := range p.Metrics {
		switch {
		case !d.Comparable && reason == "":
			reason = d.Reason
		case d.Significant && d.Better:
			better = append(better, d)
		case d.Significant:
			worse = append(worse, d)
		}
	}
	switch o {
	case NoCompare:
		return reason
	case Faster:
		return topChanges(better, 40)
	case Slower:
		return topChanges(worse, 40)
	case Mixed:
		return "better " + topChanges(better, 20) + "; worse " + topChanges(worse, 20)
	}
	return "no metric beyond noise"
}

// JSON is the sweep comparison with top-level keys a, b and diff: the two
// directories, and the summary, every pair (as Comparison.JSON's) and the
// keys present on one side only.
func (c *SweepComparison) JSON() pyjson.Object {
	by, vc, sc := c.Summary()
	summary := pyjson.Object{{Key: "pairs", Value: len(c.Pairs)}}
	for _, o := range outcomeOrder {
		summary = append(summary, pyjson.Field{Key: strings.ReplaceAll(o, " ", "_"), Value: by[o]})
	}
	summary = append(summary, pyjson.Field{Key: "verdict_changed", Value: vc}, pyjson.Field{Key: "status_changed", Value: sc},
		pyjson.Field{Key: "only_a", Value: len(c.OnlyA)}, pyjson.Field{Key: "only_b", Value: len(c.OnlyB)})
	pairs := make([]any, len(c.Pairs))
	for i := range c.Pairs {
		p := &c.Pairs[i]
		pairs[i] = append(pyjson.Object{
			{Key: "run_id", Value: p.Key.RunID}, {Key: "run_rel", Value: p.RunRel},
			{Key: "config_id", Value: p.Key.ConfigID}, {Key: "config_label", Value: str(p.ConfigLabel)},
		}, p.Comparison.JSON()...)
	}
	keys := func(ks []PairKey, side *SweepSide) []any {
		out := make([]any, len(ks))
		for i, k := range ks {
			out[i] = pyjson.Object{{Key: "run_id", Value: k.RunID}, {Key: "run_rel", Value: side.RunRel[k]}, {Key: "config_id", Value: k.ConfigID}}
		}
		return out
	}
	return pyjson.Object{
		{Key: "a", Value: pyjson.Object{{Key: "path", Value: c.A.Dir}, {Key: "rows", Value: len(c.A.Rows)}}},
		{Key: "b", Value: pyjson.Object{{Key: "path", Value: c.B.Dir}, {Key: "rows", Value: len(c.B.Rows)}}},
		{Key: "diff", Value: pyjson.Object{
			{Key: "summary", Value: summary}, {Key: "pairs", Value: pairs},
			{Key: "only_a", Value: keys(c.OnlyA, c.A)}, {Key: "only_b", Value: keys(c.OnlyB, c.B)},
		}},
	}
}
