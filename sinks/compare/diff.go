package compare

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core/stats"
)

// MetricDiff is one metric compared.
type MetricDiff struct {
	Metric Metric
	// A and B are the reported values (NaN: null).
	A, B float64
	// Comparable is false when the difference cannot be supported; Reason
	// says why and every number below is NaN.
	Comparable bool
	Reason     string
	// Diff is B − A, DiffPct 100·Diff/A; CILo and CIHi bound Diff's 95 %
	// interval; KA and KB are the super-passes behind it, DF the Welch
	// degrees of freedom.
	Diff, DiffPct, CILo, CIHi float64
	KA, KB                    int
	DF                        float64
	// Significant reports an interval that excludes zero; Better that B
	// is better than A (lower latency, higher throughput) when it is.
	Significant, Better bool
}

// Outcome of a comparison as one word.
const (
	Faster    = "faster"    // some metric better beyond noise, none worse
	Slower    = "slower"    // some metric worse beyond noise, none better
	Mixed     = "mixed"     // some better, some worse
	Unchanged = "unchanged" // no difference beyond noise
	NoCompare = "cannot compare"
)

// Comparison is A against B.
type Comparison struct {
	A, B    Side
	Metrics []MetricDiff
}

// Compare compares a with b metric by metric (package doc).
func Compare(a, b Side) Comparison {
	c := Comparison{A: a, B: b}
	for i, m := range Metrics() {
		c.Metrics = append(c.Metrics, diffOf(m, i, &a, &b))
	}
	return c
}

func diffOf(m Metric, i int, a, b *Side) MetricDiff {
	nan := math.NaN()
	d := MetricDiff{Metric: m, A: a.Values[i], B: b.Values[i], Diff: nan, DiffPct: nan, CILo: nan, CIHi: nan, DF: nan}
	if r := noValue(m, i, "A", a); r != "" {
		d.Reason = r
		return d
	}
	if r := noValue(m, i, "B", b); r != "" {
		d.Reason = r
		return d
	}
	xa, xb := a.Batches[i], b.Batches[i]
	d.KA, d.KB = len(xa), len(xb)
	for _, s := range []struct {
		name string
		side *Side
		k    int
	}{{"A", a, d.KA}, {"B", b, d.KB}} {
		if s.k < 2 {
			d.Reason = fmt.Sprintf("%s's window has %d super-pass(es) with %s: an interval needs 2", s.name, s.k, m.Key)
			switch {
			case s.side.BatchNote != "":
				d.Reason = s.name + ": " + s.side.BatchNote
			case s.side.noTPOTMean && m.Key == "tps_per_user":
				d.Reason = s.name + ": the series predates tpot_mean_ns (schema < 3): no per-user batches"
			}
			return d
		}
	}
	va, vb := sampleVar(xa)/float64(d.KA), sampleVar(xb)/float64(d.KB)
	se := math.Sqrt(va + vb)
	if !(se > 0) {
		d.Reason = "no spread between super-passes on either side: no interval"
		return d
	}
	d.DF = (va + vb) * (va + vb) / (va*va/float64(d.KA-1) + vb*vb/float64(d.KB-1))
	half := stats.TCritical95(int(math.Floor(d.DF))) * se
	d.Comparable = true
	d.Diff = d.B - d.A
	if d.A != 0 {
		d.DiffPct = 100 * d.Diff / d.A
	}
	d.CILo, d.CIHi = d.Diff-half, d.Diff+half
	d.Significant = d.CILo > 0 || d.CIHi < 0
	d.Better = d.Significant && (d.Diff > 0) == m.HigherIsBetter
	return d
}

// noValue says why side s has no value of metric i to compare ("" when
// it has one).
func noValue(m Metric, i int, name string, s *Side) string {
	switch {
	case s.WindowStart < 0:
		why := s.Reason
		if why == "" {
			why = "no window"
		}
		return fmt.Sprintf("%s has no steady window (%s: %s)", name, orDash(s.Status), why)
	case isNaN(s.Values[i]):
		return fmt.Sprintf("%s has no steady %s", name, m.Key)
	case s.NoCI[i]:
		return fmt.Sprintf("%s's %s has no confidence interval", name, m.Key)
	}
	return ""
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// sampleVar is the sample variance of xs (n − 1 denominator; n ≥ 2),
// about the compensated mean.
func sampleVar(xs []float64) float64 {
	mean := stats.Sum(xs) / float64(len(xs))
	sq := make([]float64, len(xs))
	for i, x := range xs {
		sq[i] = (x - mean) * (x - mean)
	}
	return stats.Sum(sq) / float64(len(xs)-1)
}

// Outcome is the comparison in one word: Faster, Slower, Mixed, Unchanged
// or NoCompare (no metric comparable).
func (c *Comparison) Outcome() string {
	better, worse, comparable := 0, 0, 0
	for _, d := range c.Metrics {
		if !d.Comparable {
			continue
		}
		comparable++
		if d.Significant {
			if d.Better {
				better++
			} else {
				worse++
			}
		}
	}
	switch {
	case comparable == 0:
		return NoCompare
	case better > 0 && worse > 0:
		return Mixed
	case better > 0:
		return Faster
	case worse > 0:
		return Slower
	}
	return Unchanged
}

// StatusChanged and VerdictChanged report a change of outcome.
func (c *Comparison) StatusChanged() bool  { return c.A.Status != c.B.Status }
func (c *Comparison) VerdictChanged() bool { return c.A.Verdict != c.B.Verdict }
