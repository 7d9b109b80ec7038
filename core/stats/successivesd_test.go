package stats

import (
	"math"
	"testing"
)

// TestSuccessiveDiffSD checks the formula on series worked by hand: the
// differences, their median, the MAD, then 1.4826·MAD/√2.
func TestSuccessiveDiffSD(t *testing.T) {
	for _, c := range []struct {
		name string
		xs   []float64
		want float64
	}{
		// Δ = 2, −1, 4, −1; median 0.5; |Δ − 0.5| = 1.5, 1.5, 3.5, 1.5; MAD 1.5.
		{"worked", []float64{10, 12, 11, 15, 14}, 1.4826 * 1.5 / math.Sqrt2},
		// Δ = 0, 0, 4, 0, 0: a clean step moves one difference only.
		{"step", []float64{1, 1, 1, 5, 5, 5}, 0},
		// Δ constant: a straight ramp has no noise.
		{"ramp", []float64{1, 2, 3, 4, 5, 6}, 0},
		// Δ = 1, −1, 1, −1: median 0, MAD 1.
		{"zigzag", []float64{0, 1, 0, 1, 0}, 1.4826 / math.Sqrt2},
		{"two values", []float64{1, 9}, 0},
		{"empty", nil, 0},
	} {
		if got := SuccessiveDiffSD(c.xs); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: SuccessiveDiffSD = %v, want %v", c.name, got, c.want)
		}
	}
}
