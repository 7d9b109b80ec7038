package calibration

import (
	"math"
	"testing"
)

// TestQuantile: values computed with numpy.quantile (linear, the default).
func TestQuantile(t *testing.T) {
	xs := []float64{0.10, 0.02, math.NaN(), 0, 0.04, 0.03}
	for _, tc := range []struct {
		q, want float64
	}{
		{0, 0}, {0.5, 0.03}, {0.95, 0.088}, {1, 0.10}, {0.25, 0.02},
	} {
		if got := Quantile(xs, tc.q); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Quantile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if xs[0] != 0.10 {
		t.Error("Quantile sorted its input")
	}
	for _, bad := range [][]float64{nil, {math.NaN()}} {
		if got := Quantile(bad, 0.5); !math.IsNaN(got) {
			t.Errorf("Quantile(%v) = %v, want NaN", bad, got)
		}
	}
	if got := Quantile(xs, 1.5); !math.IsNaN(got) {
		t.Errorf("Quantile(q=1.5) = %v, want NaN", got)
	}
}
