package bench

import (
	"math"
	"slices"
	"syscall"
	"time"

	"github.com/steadysweep/steadysweep/core/stats"
)

// Median returns the median of xs (the mean of the middle two for an even
// count); NaN for none. It is the detector's (stats.Median).
func Median(xs []float64) float64 { return stats.Median(xs) }

// MinMax returns the smallest and largest of xs.
func MinMax(xs []float64) (lo, hi float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	return slices.Min(xs), slices.Max(xs)
}

// CPUTime is the user+system CPU time of this process so far. On a shared,
// loaded machine it measures work more steadily than the wall clock.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Sample is one timed repetition: wall and CPU seconds.
type Sample struct{ Wall, CPU float64 }

// Time runs fn once and returns its wall and process-CPU seconds.
func Time(fn func() error) (Sample, error) {
	c0, t0 := CPUTime(), time.Now()
	err := fn()
	return Sample{Wall: time.Since(t0).Seconds(), CPU: (CPUTime() - c0).Seconds()}, err
}

// Repeat runs fn n times and returns each repetition's times.
func Repeat(n int, fn func() error) ([]Sample, error) {
	out := make([]Sample, 0, n)
	for range n {
		s, err := Time(fn)
		if err != nil {
			return out, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Walls and CPUs pick one component of each sample.
func Walls(ss []Sample) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = s.Wall
	}
	return out
}

func CPUs(ss []Sample) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = s.CPU
	}
	return out
}
