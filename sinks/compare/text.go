package compare

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Width is the widest line the text reports write.
const Width = 100

// WriteText writes the comparison for a terminal: the headline (the
// answer) first, then the two sides, any change of status or verdict, and
// one line per metric. No line is wider than Width.
func (c *Comparison) WriteText(w io.Writer) error {
	var b strings.Builder
	line := func(s string) { b.WriteString(strings.TrimRight(fit(s, Width), " ")); b.WriteByte('\n') }
	line(c.Headline())
	if ch := c.Changes(); ch != "" {
		line(ch)
	}
	line("")
	for _, s := range []struct {
		name string
		side *Side
	}{{"A", &c.A}, {"B", &c.B}} {
		line(s.name + "  " + sideLine(s.side))
	}
	line("")
	line(fmt.Sprintf(rowFormat, "metric", "unit", "A", "B", "B - A", "%", "95 % CI of B - A", "beyond noise"))
	for _, d := range c.Metrics {
		m := d.Metric
		if !d.Comparable {
			head := fmt.Sprintf("%-12s %-7s %10s %10s  ", m.Key, m.TextUnit, show(d.A, m), show(d.B, m))
			line(head + "cannot compare: " + d.Reason)
			continue
		}
		ci := "[" + signed(d.CILo*m.TextScale) + ", " + signed(d.CIHi*m.TextScale) + "]"
		line(fmt.Sprintf(rowFormat, m.Key, m.TextUnit, show(d.A, m), show(d.B, m),
			signed(d.Diff*m.TextScale), pct(d.DiffPct), ci, significance(&d)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// rowFormat lays out a metric line: 94 columns with the longest values.
const rowFormat = "%-12s %-7s %10s %10s %10s %7s  %-22s %s"

// Headline is the answer in one line.
func (c *Comparison) Headline() string {
	n := 0
	var better, worse []MetricDiff
	firstReason := ""
	for _, d := range c.Metrics {
		if !d.Comparable {
			if firstReason == "" {
				firstReason = d.Reason
			}
			continue
		}
		n++
		if d.Significant && d.Better {
			better = append(better, d)
		} else if d.Significant {
			worse = append(worse, d)
		}
	}
	on := fmt.Sprintf(" beyond noise on %d of %d metrics: ", len(better)+len(worse), n)
	switch c.Outcome() {
	case NoCompare:
		return "cannot compare: " + firstReason
	case Faster:
		head := "B faster than A" + on
		return head + topChanges(better, Width-len(head))
	case Slower:
		head := "B slower than A" + on
		return head + topChanges(worse, Width-len(head))
	case Mixed:
		head := fmt.Sprintf("B vs A beyond noise both ways (%d of %d metrics): better ", len(better)+len(worse), n)
		bt := topChanges(better, (Width-len(head))/2-8)
		return head + bt + "; worse " + topChanges(worse, Width-len(head)-len(bt)-8)
	}
	return fmt.Sprintf("no difference beyond noise: every 95 %% CI of B - A includes 0 (%d comparable metrics)", n)
}

// Changes names a change of status or verdict ("" when none).
func (c *Comparison) Changes() string {
	var parts []string
	if c.VerdictChanged() {
		parts = append(parts, "verdict "+orDash(c.A.Verdict)+" -> "+orDash(c.B.Verdict))
	}
	if c.StatusChanged() {
		parts = append(parts, "status "+orDash(c.A.Status)+" -> "+orDash(c.B.Status))
	}
	if len(parts) == 0 {
		return ""
	}
	return "CHANGED: " + strings.Join(parts, "; ")
}

// topChanges lists the metrics largest relative change first, as many
// as fit in width columns (at least one).
func topChanges(ds []MetricDiff, width int) string {
	ds = append([]MetricDiff(nil), ds...)
	sort.SliceStable(ds, func(i, j int) bool { return math.Abs(ds[i].DiffPct) > math.Abs(ds[j].DiffPct) })
	out := ""
	for i, d := range ds {
		part := d.Metric.Key + " " + pct(d.DiffPct)
		if i > 0 {
			part = ", " + part
		}
		if i > 0 && len(out)+len(part) > width {
			break
		}
		out += part
	}
	return out
}

func sideLine(s *Side) string {
	win := "no window"
	if s.WindowStart >= 0 {
		win = fmt.Sprintf("window sp %d-%d (S=%d)", s.WindowStart, s.WindowEnd, s.SuperpassSize)
	}
	parts := []string{orDash(s.Config), orDash(s.Status), orDash(s.Verdict), win}
	return fitLeft(s.Label, Width-3-len(strings.Join(parts, "  "))-2) + "  " + strings.Join(parts, "  ")
}

// significance is the last column of a metric line: "better" or
// "worse" when the interval excludes 0 (B better or worse than A), "no"
// when it does not.
func significance(d *MetricDiff) string {
	switch {
	case !d.Significant:
		return "no"
	case d.Better:
		return "better"
	}
	return "worse"
}

// show is a reported value in text units ("null" when none).
func show(x float64, m Metric) string {
	if isNaN(x) {
		return "null"
	}
	return num4(x * m.TextScale)
}

// num4 writes x with four significant digits (an exponent only below
// 0.001 or from 1e9 on, so a value fits ten columns).
func num4(x float64) string {
	if x == 0 {
		return "0"
	}
	mag := int(math.Floor(math.Log10(math.Abs(x))))
	if mag < -3 || mag >= 9 {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	return strconv.FormatFloat(x, 'f', max(0, 3-mag), 64)
}

func signed(x float64) string {
	if x > 0 {
		return "+" + num4(x)
	}
	return num4(x)
}

// pct is a signed percentage with one decimal ("-" when undefined).
func pct(x float64) string {
	if isNaN(x) {
		return "-"
	}
	s := strconv.FormatFloat(x, 'f', 1, 64)
	if x > 0 {
		s = "+" + s
	}
	return s + "%"
}

// fit cuts s to n columns (runes), ending it with "…" when cut.
func fit(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// fitLeft cuts s to n columns keeping its end (a path's tail), starting
// it with "…" when cut.
func fitLeft(s string, n int) string {
	r := []rune(s)
	if n < 8 {
		n = 8
	}
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}
