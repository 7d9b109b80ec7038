package stats

import "math"

// Summary is the reference's `summarize` record of a list (detector §5.11).
type Summary struct {
	Count          int
	Mean, Min, Max float64
	P50, P90, P99  float64
	Histogram      []Bin
}

// SummaryBins is the number of histogram bins of a Summary.
const SummaryBins = 20

// Summarize returns the reference's summary of xs (detector §5.11): with s the
// stably sorted copy, Mean = Sum(s)/n (compensated sum in sorted order),
// Min = s[0], Max = s[n−1], P50/P90/P99 = PercentileLower(s, p) and a
// SummaryBins-bin Histogram of s. For an empty xs the Count is 0, the floats
// are NaN and the Histogram is nil. xs is not modified.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		nan := math.NaN()
		return Summary{Mean: nan, Min: nan, Max: nan, P50: nan, P90: nan, P99: nan}
	}
	return SummarizeSorted(sortedCopy(xs))
}

// SummarizeInPlace is Summarize(xs) sorting xs itself with fs (xs is left
// ascending): no copy, unless xs holds zeros of both signs, whose stable
// order needs the original one (then it is Summarize's copy).
func (fs *FloatSorter) SummarizeInPlace(xs []float64) Summary {
	pos, neg := false, false
	for _, x := range xs {
		if x == 0 {
			if math.Signbit(x) {
				neg = true
			} else {
				pos = true
			}
		}
	}
	if len(xs) == 0 || (pos && neg) {
		return Summarize(xs)
	}
	fs.Sort(xs)
	return SummarizeSorted(xs)
}

// SummarizeSorted is Summarize of the ascending s (not checked).
func SummarizeSorted(s []float64) Summary {
	n := len(s)
	return Summary{
		Count:     n,
		Mean:      Sum(s) / float64(n),
		Min:       s[0],
		Max:       s[n-1],
		P50:       PercentileLower(s, 0.50),
		P90:       PercentileLower(s, 0.90),
		P99:       PercentileLower(s, 0.99),
		Histogram: Histogram(s, SummaryBins),
	}
}
