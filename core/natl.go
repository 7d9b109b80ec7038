package core

import (
	"cmp"
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// NATLResult is the agentic per-trajectory throughput result (detector
// spec §13; experimental and unsupported in the reference).
type NATLResult struct {
	NTrajectories         int
	SuperpassTrajectories int
	NSuperPasses          int
	// Distribution over the NATL values (0 when there are none).
	P10, P50, P90, P99, Mean, CoV float64
	// SPMedian is the median NATL of each kept super-pass of trajectories.
	SPMedian []float64
	// AcrossCoV is the CoV of SPMedian (0 below two super-passes).
	AcrossCoV float64
	// BatchMeansSEPct is 100·AcrossCoV/√NSuperPasses (0 without any).
	BatchMeansSEPct float64
	// Found is NSuperPasses ≥ 2 and AcrossCoV ≤ max(cov bounds).
	Found bool
}

// NATLPair is one trajectory's completion time and NATL (tok/s).
type NATLPair struct {
	EndNs int64
	NATL  float64
}

// NATLPairs computes per-conversation NATL from the samples (§13): per
// conversation (ConversationID, "" grouping the unlabelled ones), over its
// timestamped completions in file order, latency_s += double(latency)/1e9
// (running sum), tokens += FullTokens (when > 0), end = max completion
// time; NATL = tokens/latency_s for conversations with latency_s > 0 and
// tokens > 0. The pairs are sorted by end time, ties in the order of each
// conversation's first completion.
func NATLPairs(s *Samples) []NATLPair {
	type conv struct {
		lat    float64
		tokens int64
		end    int64
	}
	var idx []int
	for i := range s.Len() {
		if at(s.HasComplete, i, false) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Compare(at(s.CompleteSeq, a, int64(a)), at(s.CompleteSeq, b, int64(b)))
	})
	byID := map[string]*conv{}
	var order []string
	for _, i := range idx {
		id := at(s.ConversationID, i, "")
		c := byID[id]
		if c == nil {
			c = &conv{}
			byID[id] = c
			order = append(order, id)
		}
		c.lat += float64(at(s.LatencyNs, i, 0)) / 1e9
		c.end = max(c.end, at(s.CompleteNs, i, 0))
		if t := at(s.FullTokens, i, -1); t > 0 {
			c.tokens += t
		}
	}
	var pairs []NATLPair
	for _, id := range order {
		c := byID[id]
		if c.lat > 0 && c.tokens > 0 {
			pairs = append(pairs, NATLPair{EndNs: c.end, NATL: float64(c.tokens) / c.lat})
		}
	}
	slices.SortStableFunc(pairs, func(a, b NATLPair) int { return cmp.Compare(a.EndNs, b.EndNs) })
	return pairs
}

// NATLSummary computes the NATL result of completion-ordered pairs with T
// trajectories per super-pass (§13): consecutive groups of T, a group kept
// if it has at least T/2 members, its median recorded; distribution
// percentiles over the sorted values by PercentileLower, mean by the
// compensated sum of the sorted values, CoV of the unsorted values.
func NATLSummary(pairs []NATLPair, T int, covBounds []float64) NATLResult {
	natl := make([]float64, len(pairs))
	for i, p := range pairs {
		natl[i] = p.NATL
	}
	n := len(natl)
	r := NATLResult{NTrajectories: n, SuperpassTrajectories: T, SPMedian: []float64{}}
	if T > 0 {
		for i := 0; i < n; i += T {
			chunk := natl[i:min(i+T, n)]
			if len(chunk) >= T/2 {
				r.SPMedian = append(r.SPMedian, stats.Median(chunk))
			}
		}
	}
	r.NSuperPasses = len(r.SPMedian)
	if r.NSuperPasses >= 2 {
		r.AcrossCoV = stats.CoV(r.SPMedian)
	}
	if r.NSuperPasses > 0 {
		r.BatchMeansSEPct = 100.0 * r.AcrossCoV / math.Sqrt(float64(r.NSuperPasses))
	}
	if n > 0 {
		s := slices.Clone(natl)
		slices.Sort(s)
		r.P10 = stats.PercentileLower(s, 0.10)
		r.P50 = stats.PercentileLower(s, 0.50)
		r.P90 = stats.PercentileLower(s, 0.90)
		r.P99 = stats.PercentileLower(s, 0.99)
		r.Mean = stats.Sum(s) / float64(n)
	}
	r.CoV = stats.CoV(natl)
	if len(covBounds) > 0 {
		bmax := covBounds[0]
		for _, b := range covBounds[1:] {
			if b > bmax {
				bmax = b
			}
		}
		r.Found = r.NSuperPasses >= 2 && r.AcrossCoV <= bmax
	}
	return r
}
