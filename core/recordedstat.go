package core

import "math"

// RecordedStat summarises over the run one per-request field the
// recording tool writes that has no per-sample column (GuideLLM's
// cached_tokens, vLLM's queue_times): kept so the run's JSON says what
// the tool measured, never used by the detector.
type RecordedStat struct {
	// Field names the tool and its field ("vllm queue_times").
	Field string
	// Unit is the values' unit as read ("tokens", "s").
	Unit string
	// N counts the requests recording a value; Sum and Max are over
	// those values (both 0 when N is 0).
	N        int64
	Sum, Max float64
}

// Add counts one recorded value.
func (s *RecordedStat) Add(v float64) {
	if s.N == 0 || v > s.Max {
		s.Max = v
	}
	s.N++
	s.Sum += v
}

// Mean is Sum/N, the mean recorded value; NaN when N is 0 (nothing
// recorded has no mean).
func (s RecordedStat) Mean() float64 {
	if s.N == 0 {
		return math.NaN()
	}
	return s.Sum / float64(s.N)
}
