package sinks

import (
	"fmt"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
)

// tailOnly is the largest rank from the top at which a percentile is said
// to rest on the tail alone: the largest or the second-largest sample.
const tailOnly = 2

// tailOnlyBelow is the smallest sample count at which PercentileLower's
// p is more than one of the tailOnly largest samples (p90: 12, p99: 102).
func tailOnlyBelow(p float64) int {
	n := 1
	for stats.PercentileRankFromTop(n, p) <= tailOnly {
		n++
	}
	return n
}

// rankName names a rank from the top.
func rankName(rank int) string {
	if rank == 1 {
		return "largest"
	}
	return "second-largest"
}

// SmallWindowWarning is the one-line warning for a steady window whose
// reported p90 or p99 (the latency table's) is one of its two largest
// samples, from the window's sample count: a 25-sample window's p99 is
// its second-largest value, not a tail estimate. "" when the window is
// large enough, absent, or the result is the NATL path's.
func SmallWindowWarning(r *core.Result) string {
	if r == nil || r.Path == core.PathNATL {
		return ""
	}
	o := outcomeOf(r)
	if o.WindowStartSP < 0 || o.WindowSamples < 1 {
		return ""
	}
	n := o.WindowSamples
	var ps, needs []string
	rank := 0
	for _, q := range []struct {
		name string
		p    float64
	}{{"p90", 0.90}, {"p99", 0.99}} {
		if k := stats.PercentileRankFromTop(n, q.p); k <= tailOnly {
			ps, needs, rank = append(ps, q.name), append(needs, fmt.Sprint(tailOnlyBelow(q.p))), max(rank, k)
		}
	}
	if len(ps) == 0 {
		return ""
	}
	verb, subject := "is", "a "+ps[0]
	if len(ps) > 1 {
		verb, subject = "are", "they"
	}
	return fmt.Sprintf("the steady window holds %s: its %s %s its %s sample (%s needs %s samples to rest on more than the two largest)",
		Count(n, "sample"), strings.Join(ps, " and "), verb, rankName(rank), subject, strings.Join(needs, " and "))
}

// SmallSuperpassP90Warning is the one-line warning for a super-pass size
// s, from source ("--superpass-size"), at which each super-pass's p90 —
// the statistic the stability gates test — is one of its two largest
// samples; "" when s is unset or large enough.
func SmallSuperpassP90Warning(s int, source string) string {
	k := stats.PercentileRankFromTop(s, 0.90)
	if k < 1 || k > tailOnly {
		return ""
	}
	return fmt.Sprintf("%s: super-pass size %d: each super-pass's p90, which the stability gates test, is its %s sample (a p90 needs %d samples to rest on more than the two largest)",
		source, s, rankName(k), tailOnlyBelow(0.90))
}
