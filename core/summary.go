package core

import (
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// summarizeSorted is stats.Summarize of an ascending list (detector spec
// §5.11): count, mean = Sum(sorted)/n, min, max, p50/p90/p99 by
// PercentileLower and the 20-bin histogram.
func summarizeSorted(s []float64) stats.Summary {
	n := len(s)
	return stats.Summary{
		Count:     n,
		Mean:      stats.Sum(s) / float64(n),
		Min:       s[0],
		Max:       s[n-1],
		P50:       stats.PercentileLower(s, 0.50),
		P90:       stats.PercentileLower(s, 0.90),
		P99:       stats.PercentileLower(s, 0.99),
		Histogram: stats.Histogram(s, stats.SummaryBins),
	}
}

// summarizeLists is stats.Summarize of the union of ascending lists (at
// least one value in all), without merging them when that is exact.
//
// The mean is the compensated sum of the sorted union divided by n. When
// every value is an integer and Σ|x| < 2^53 every partial sum is exact, so
// the compensated sum in any order is the exact sum and no merge is
// needed (TTFT and latency are double(integer nanoseconds)); otherwise the
// lists are merged and summarised by summarizeSorted. Percentiles and the
// histogram use the lists directly: in each list the values of one bin
// form a contiguous run, so a walk counts the bins, and the k-th value is
// found by sorting the one bin that holds it.
func summarizeLists(lists [][]float64) stats.Summary {
	n, exactSum, integral := 0, 0.0, true
	lo, hi := math.Inf(1), math.Inf(-1)
	abs := 0.0
	for _, l := range lists {
		n += len(l)
		if len(l) == 0 {
			continue
		}
		lo = math.Min(lo, l[0])
		hi = math.Max(hi, l[len(l)-1])
		for _, x := range l {
			if x != math.Trunc(x) {
				integral = false
				break
			}
			exactSum += x
			abs += math.Abs(x)
		}
	}
	if !integral || !(abs < 1<<53) || math.IsNaN(lo) || math.IsNaN(hi) || n == 0 {
		return summarizeSorted(mergeSorted(lists))
	}
	sum := stats.Summary{Count: n, Mean: exactSum / float64(n), Min: lo, Max: hi}
	if lo == hi {
		sum.P50, sum.P90, sum.P99 = lo, lo, lo
		sum.Histogram = stats.Histogram([]float64{lo}, stats.SummaryBins)
		sum.Histogram[0].Count = n
		return sum
	}
	// The edges depend only on lo, hi and the bin count.
	bins := stats.Histogram([]float64{lo, hi}, stats.SummaryBins)
	nb := len(bins)
	// Segments in value order: 0…nb−1 the bins by "first b with x < e_{b+1}",
	// nb the values matching no bin (x < hi but ≥ e_nb), nb+1 the values ≥ hi
	// (counted in the last bin).
	nseg := nb + 2
	starts := make([]int, len(lists)*(nseg+1))
	counts := make([]int, nseg)
	for li, l := range lists {
		off := starts[li*(nseg+1) : (li+1)*(nseg+1)]
		// Sorted values take non-decreasing segments, so one pass suffices:
		// a value not taken by an earlier segment is ≥ its upper edge.
		i := 0
		for seg := 0; seg < nseg; seg++ {
			off[seg] = i
			switch {
			case seg < nb:
				for e := bins[seg].Hi; i < len(l) && l[i] < hi && l[i] < e; {
					i++
				}
			case seg == nb:
				for i < len(l) && l[i] < hi {
					i++
				}
			default:
				i = len(l)
			}
			counts[seg] += i - off[seg]
		}
		off[nseg] = i
	}
	for b := range bins {
		bins[b].Count = counts[b]
	}
	bins[nb-1].Count += counts[nb+1]
	sum.Histogram = bins
	kth := func(k int) float64 {
		seg := 0
		for ; seg < nseg-1 && k >= counts[seg]; seg++ {
			k -= counts[seg]
		}
		var vals []float64
		for li, l := range lists {
			off := starts[li*(nseg+1) : (li+1)*(nseg+1)]
			vals = append(vals, l[off[seg]:off[seg+1]]...)
		}
		slices.Sort(vals)
		return vals[k]
	}
	sum.P50 = kth(int(0.50 * float64(n-1)))
	sum.P90 = kth(int(0.90 * float64(n-1)))
	sum.P99 = kth(int(0.99 * float64(n-1)))
	return sum
}
