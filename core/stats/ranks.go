package stats

import "slices"

// stableOrder returns the indices of xs stably sorted by value.
func stableOrder(xs []float64) []int { return stableOrderInto(xs, make([]int, len(xs))) }

// stableOrderInto is stableOrder into idx (as long as xs).
func stableOrderInto(xs []float64, idx []int) []int {
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmpFloat(xs[a], xs[b]) })
	return idx
}

// OrdinalRanks returns the 1-based ordinal ranks of xs (detector §5.5, used by
// the reference's Hamed–Rao): the value at stable-sorted position j gets rank
// j+1, so tied values get distinct consecutive ranks in input order.
func OrdinalRanks(xs []float64) []float64 {
	return ordinalRanksInto(xs, make([]float64, len(xs)), make([]int, len(xs)))
}

// ordinalRanksInto is OrdinalRanks into r, with idx as scratch (both as
// long as xs).
func ordinalRanksInto(xs, r []float64, idx []int) []float64 {
	for j, i := range stableOrderInto(xs, idx) {
		r[i] = float64(j + 1)
	}
	return r
}

// AverageRanks returns the 1-based average ranks of xs (detector §5.5, used by
// Pettitt; scipy rankdata "average", R rank): each maximal block of equal
// values at sorted positions i..j (0-based) gets the rank (i+1 + j+1)/2.
func AverageRanks(xs []float64) []float64 {
	r := make([]float64, len(xs))
	idx := stableOrder(xs)
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		rank := float64(i+1+j+1) / 2
		for k := i; k <= j; k++ {
			r[idx[k]] = rank
		}
		i = j + 1
	}
	return r
}
