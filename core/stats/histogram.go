package stats

// Bin is one histogram bin [Lo, Hi) with its count; the last bin also holds
// values equal to its Hi.
type Bin struct {
	Lo, Hi float64
	Count  int
}

// Histogram returns the reference's histogram of xs in the given number of
// bins (detector §5.10). With lo = min(xs) and hi = max(xs):
//
//	lo == hi: one bin {lo, hi, len(xs)}
//	lo > 0:   log-spaced edges  e_i = lo·(hi/lo)^(i/bins)
//	lo <= 0:  linear edges      e_i = lo + ((hi−lo)·i)/bins
//
// A value ≥ hi goes to the last bin, any other to the first bin b with
// value < e_{b+1}; a value satisfying neither (possible only when rounding
// puts e_bins below hi) is dropped. Histogram returns nil if xs is empty or
// bins < 1; NaN values are not counted.
//
// Log-mode edges use GlibcPow, so they are bit-identical with the reference
// on glibc x86-64 hosts (Go's math.Pow would differ by up to 3 ulp, §5.7);
// linear edges are plain IEEE arithmetic.
func Histogram(xs []float64, bins int) []Bin {
	if len(xs) == 0 || bins < 1 {
		return nil
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs[1:] {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	if lo == hi {
		return []Bin{{Lo: lo, Hi: hi, Count: len(xs)}}
	}
	edges := make([]float64, bins+1)
	if lo > 0 {
		ratio := hi / lo
		for i := range edges {
			edges[i] = lo * GlibcPow(ratio, float64(i)/float64(bins))
		}
	} else {
		for i := range edges {
			edges[i] = lo + ((hi-lo)*float64(i))/float64(bins)
		}
	}
	out := make([]Bin, bins)
	for b := range out {
		out[b] = Bin{Lo: edges[b], Hi: edges[b+1]}
	}
	for _, x := range xs {
		if x >= hi {
			out[bins-1].Count++
			continue
		}
		for b := 0; b < bins; b++ {
			if x < edges[b+1] {
				out[b].Count++
				break
			}
		}
	}
	return out
}
