package stats

import "testing"

// TestPercentileRankFromTop: the rank from the top agrees with the
// sample PercentileLower picks from 1..n (the sample of rank k from the
// top of 1..n is n+1−k), and the p90/p99 bounds the report's warnings
// name: p90 is one of the two largest up to n = 11, p99 up to n = 101.
func TestPercentileRankFromTop(t *testing.T) {
	for _, p := range []float64{0.5, 0.9, 0.99} {
		for n := 1; n <= 300; n++ {
			s := make([]float64, n)
			for i := range s {
				s[i] = float64(i + 1)
			}
			if got, want := PercentileRankFromTop(n, p), n+1-int(PercentileLower(s, p)); got != want {
				t.Fatalf("n=%d p=%g: rank %d, PercentileLower picks rank %d", n, p, got, want)
			}
		}
	}
	for _, tc := range []struct {
		p    float64
		last int
	}{{0.9, 11}, {0.99, 101}} {
		if PercentileRankFromTop(tc.last, tc.p) != 2 || PercentileRankFromTop(tc.last+1, tc.p) != 3 {
			t.Errorf("p%g: ranks %d at n=%d, %d at n=%d; want 2, 3", 100*tc.p,
				PercentileRankFromTop(tc.last, tc.p), tc.last, PercentileRankFromTop(tc.last+1, tc.p), tc.last+1)
		}
	}
	if PercentileRankFromTop(0, 0.9) != 0 || PercentileRankFromTop(5, 1.5) != 0 {
		t.Error("n < 1 or p outside [0, 1] gives a rank")
	}
}
