package core

import (
	"math"
	"testing"
)

// TestRecordedStat: Add keeps count, sum and max of the values (a first
// value below zero is the max until a larger one); Mean is their mean, NaN
// with nothing recorded.
func TestRecordedStat(t *testing.T) {
	var s RecordedStat
	if !math.IsNaN(s.Mean()) {
		t.Errorf("empty mean %v, want NaN", s.Mean())
	}
	for _, v := range []float64{-2, -5, 4.5, 1} {
		s.Add(v)
	}
	if s.N != 4 || s.Sum != -1.5 || s.Max != 4.5 || s.Mean() != -0.375 {
		t.Errorf("%+v mean %v, want n 4 sum -1.5 max 4.5 mean -0.375", s, s.Mean())
	}
	var neg RecordedStat
	neg.Add(-3)
	if neg.Max != -3 {
		t.Errorf("max of {-3} = %v", neg.Max)
	}
}
