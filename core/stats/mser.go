package stats

import "math"

// MSER returns the MSER-m truncation curve of xs (White 1997; statistics.md
// §6; kim-convergence mser_m, pysimoa MSER-5) and its recommended argmin.
// With Z_1…Z_k the means of k = ⌊n/batch⌋ consecutive, non-overlapping
// batches (the remainder dropped at the tail),
//
//	curve[d] = Σ_{j>d} (Z_j − Z̄_d)² / (k − d)²,   d = 0…k−1
//
// where Z̄_d is the mean of Z_{d+1…k}: the squared standard error of the mean
// after truncating d batches. curve[k−1] is always 0. argmin is the first
// minimum over d ≤ ⌊k/2⌋, which avoids the end artifact of the raw curve; use
// MSERArgmin for another candidate window. The truncation in points is
// argmin·batch. MSER returns (nil, −1) if batch < 1 or k == 0. The curve is
// computed with a backward Welford recurrence (O(k)), so it agrees with the
// two-pass references to about 1e-12 relative.
func MSER(xs []float64, batch int) (curve []float64, argmin int) {
	if batch < 1 {
		return nil, -1
	}
	k := len(xs) / batch
	if k == 0 {
		return nil, -1
	}
	z := make([]float64, k)
	for j := range z {
		z[j] = Sum(xs[j*batch:(j+1)*batch]) / float64(batch)
	}
	curve = make([]float64, k)
	mean, m2 := 0.0, 0.0
	for d := k - 1; d >= 0; d-- {
		cnt := float64(k - d)
		delta := z[d] - mean
		mean += delta / cnt
		m2 += delta * (z[d] - mean)
		curve[d] = m2 / (cnt * cnt)
	}
	return curve, MSERArgmin(curve, k/2)
}

// MSERArgmin returns the first d in 0…min(maxD, len(curve)−1) minimising
// curve[d] (NaN entries are skipped), or −1 if there is none.
func MSERArgmin(curve []float64, maxD int) int {
	best := -1
	bv := math.Inf(1)
	for d := 0; d <= maxD && d < len(curve); d++ {
		if curve[d] < bv || (best < 0 && !math.IsNaN(curve[d])) {
			best, bv = d, curve[d]
		}
	}
	return best
}

// MSERKim returns kim-convergence's mser_m decision for xs with the given
// batch size and its default ignore_end = max(1, min(batch, ⌊k/4⌋)) batches:
// d* = MSERArgmin over d = 0…k−1−ignore_end, index = d*·batch (or n when d*
// is the last candidate), truncated = index ≤ ⌊k·batch/2⌋. A constant series
// gives (true, 0).
func MSERKim(xs []float64, batch int) (truncated bool, index int) {
	curve, _ := MSER(xs, batch)
	if curve == nil {
		return false, len(xs)
	}
	k := len(curve)
	constant := true
	for _, x := range xs[:k*batch] {
		if x != xs[0] {
			constant = false
			break
		}
	}
	if constant {
		return true, 0
	}
	ignore := max(1, min(batch, k/4))
	last := k - 1 - ignore
	d := MSERArgmin(curve, last)
	if d < 0 {
		return false, len(xs)
	}
	index = d * batch
	if d == last {
		index = len(xs)
	}
	return index <= (k*batch)/2, index
}
