package core

import (
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Metric is one tracked metric×percentile trajectory (detector spec §6).
type Metric struct {
	// Key is the output key, e.g. "tpot_p50".
	Key string
	// Source is the super-pass list the values come from.
	Source MetricSource
	// P is the percentile in [0, 1] (PercentileLower convention).
	P float64
	// Gated reports whether the metric gates admissibility (§10.1).
	Gated bool
	// Watched reports whether the metric is in the drift watch (§10.6).
	Watched bool
}

// MetricSource names a super-pass list.
type MetricSource int

// The super-pass lists a metric can read.
const (
	SourceTTFT MetricSource = iota
	SourceTPOT
	SourceLatency
	SourceTTFTWarm
)

func (src MetricSource) list(sp *SuperPass) []float64 {
	switch src {
	case SourceTTFT:
		return sp.TTFT
	case SourceTPOT:
		return sp.TPOT
	case SourceLatency:
		return sp.Latency
	case SourceTTFTWarm:
		return sp.TTFTWarm
	}
	return nil
}

// NumMetrics is the number of tracked metrics.
const NumMetrics = 10

// Metrics returns the reference's ten tracked metrics in output order
// (§6); the array is a copy.
func Metrics() [NumMetrics]Metric {
	return [NumMetrics]Metric{
		{"ttft_p50", SourceTTFT, 0.50, false, true},
		{"ttft_p90", SourceTTFT, 0.90, false, true},
		{"tpot_p50", SourceTPOT, 0.50, true, true},
		{"tpot_p90", SourceTPOT, 0.90, true, true},
		{"ttft_p99", SourceTTFT, 0.99, false, false},
		{"tpot_p99", SourceTPOT, 0.99, false, false},
		{"latency_p50", SourceLatency, 0.50, false, false},
		{"latency_p90", SourceLatency, 0.90, false, false},
		{"ttft_warm_p50", SourceTTFTWarm, 0.50, false, false},
		{"ttft_warm_p90", SourceTTFTWarm, 0.90, false, false},
	}
}

// MetricKeys returns the keys of Metrics in order.
func MetricKeys() []string {
	ms := Metrics()
	return textsOf(ms[:], func(m Metric) string { return m.Key })
}

const numMetrics = NumMetrics

// Indices into Metrics used by the stages.
const (
	mTTFTP50 = 0
	mTTFTP90 = 1
	mTPOTP50 = 2
	mTPOTP90 = 3
)

// gatedMetrics and watchedMetrics are the indices of the gated (§10.1) and
// watched (§10.6) metrics, in output order.
func gatedMetrics() [2]int   { return [2]int{mTPOTP50, mTPOTP90} }
func watchedMetrics() [4]int { return [4]int{mTTFTP50, mTTFTP90, mTPOTP50, mTPOTP90} }

// MetricIndex returns the index in Metrics of the metric keyed key, or −1.
func MetricIndex(key string) int {
	for i, m := range Metrics() {
		if m.Key == key {
			return i
		}
	}
	return -1
}

// spPercentiles holds what the stages derive from a super-pass's lists:
// the value of every tracked metric (ok[m] false when the metric's source
// list is empty), the sorted TTFT, TPOT and latency lists and the TPOT
// mean. It is immutable once built.
type spPercentiles struct {
	v  [numMetrics]float64
	ok [numMetrics]bool

	sortedTTFT, sortedTPOT, sortedLatency []float64
	tpotMean                              float64
}

// metricPercentiles computes PercentileLower(sorted(list), p) of every
// tracked metric of sp (§6) and the other derived values.
func metricPercentiles(sp *SuperPass) *spPercentiles {
	var out spPercentiles
	var fs stats.FloatSorter
	var warm []float64
	fillPercentiles(sp, &out, &fs, &floatArena{}, &warm)
	return &out
}

// fillPercentiles is metricPercentiles into out, sorting with fs and
// taking the sorted lists from arena. The warm TTFTs are sorted (in
// *scratch) only when they are not all of the TTFTs (then their sorted
// list is the TTFTs'), and not kept.
func fillPercentiles(sp *SuperPass, out *spPercentiles, fs *stats.FloatSorter, arena *floatArena, scratch *[]float64) {
	for _, src := range []MetricSource{SourceTTFT, SourceTPOT, SourceLatency, SourceTTFTWarm} {
		xs := src.list(sp)
		if len(xs) == 0 {
			continue
		}
		var sorted []float64
		switch {
		case src == SourceTTFTWarm && len(xs) == len(sp.TTFT):
			sorted = out.sortedTTFT // the same values
		case src == SourceTTFTWarm:
			*scratch = append((*scratch)[:0], xs...)
			sorted = *scratch
			fs.Sort(sorted)
		default:
			sorted = arena.take(len(xs))
			fs.SortCopy(sorted, xs)
		}
		out.set(src, sorted)
	}
	out.tpotMean = tpotMean(sp)
}

// set takes the values of the metrics read from src from sorted, src's
// list ascending, and keeps sorted as src's sorted list (TTFT, TPOT,
// latency). An empty list sets nothing: its metrics are not ok.
func (out *spPercentiles) set(src MetricSource, sorted []float64) {
	if len(sorted) == 0 {
		return
	}
	for m, metric := range Metrics() {
		if metric.Source == src {
			out.v[m] = stats.PercentileLower(sorted, metric.P)
			out.ok[m] = true
		}
	}
	switch src {
	case SourceTTFT:
		out.sortedTTFT = sorted
	case SourceTPOT:
		out.sortedTPOT = sorted
	case SourceLatency:
		out.sortedLatency = sorted
	}
}

// mergeSorted merges ascending lists into one ascending list (pairwise,
// bottom-up).
func mergeSorted(lists [][]float64) []float64 {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	if len(lists) == 1 {
		return slices.Clone(lists[0])
	}
	a := make([]float64, 0, n)
	bounds := make([]int, 0, len(lists)+1)
	for _, l := range lists {
		bounds = append(bounds, len(a))
		a = append(a, l...)
	}
	bounds = append(bounds, len(a))
	b := make([]float64, n)
	for len(bounds) > 2 {
		next := bounds[:0:0]
		for i := 0; i+1 < len(bounds); i += 2 {
			lo := bounds[i]
			if i+2 >= len(bounds) {
				copy(b[lo:], a[lo:bounds[i+1]])
				next = append(next, lo)
				continue
			}
			mid, hi := bounds[i+1], bounds[i+2]
			x, y, k := lo, mid, lo
			for x < mid && y < hi {
				// Written for conditional moves rather than branches.
				v, ay, inc := a[x], a[y], 0
				if ay < v {
					v, inc = ay, 1
				}
				b[k] = v
				y += inc
				x += 1 - inc
				k++
			}
			k += copy(b[k:], a[x:mid])
			copy(b[k:], a[y:hi])
			next = append(next, lo)
		}
		next = append(next, n)
		bounds = next
		a, b = b, a
	}
	return a
}

// percentileTable returns the per-metric percentiles of every super-pass,
// reusing the caches Rollup filled.
func percentileTable(sps []SuperPass) []*spPercentiles {
	out := make([]*spPercentiles, len(sps))
	for i := range sps {
		if sps[i].pct != nil {
			out[i] = sps[i].pct
		} else {
			out[i] = metricPercentiles(&sps[i])
		}
	}
	return out
}

// trajectory is the per-super-pass values of metric m over pct, with the
// super-passes whose source list is empty skipped (§6).
func trajectory(pct []*spPercentiles, m int) []float64 {
	return appendTrajectory(make([]float64, 0, len(pct)), pct, m)
}

// appendTrajectory appends trajectory(pct, m) to out.
func appendTrajectory(out []float64, pct []*spPercentiles, m int) []float64 {
	for _, p := range pct {
		if p.ok[m] {
			out = append(out, p.v[m])
		}
	}
	return out
}

// strictTrajectory is trajectory without skipping: nil if any super-pass
// lacks the metric (§10.1 step 1).
func strictTrajectory(pct []*spPercentiles, m int, dst []float64) []float64 {
	dst = dst[:0]
	for _, p := range pct {
		if !p.ok[m] {
			return nil
		}
		dst = append(dst, p.v[m])
	}
	return dst
}
