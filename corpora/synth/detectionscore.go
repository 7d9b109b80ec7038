package synth

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// DetectionObs is what a detector answered on one run of the detection
// suite. Super-passes are absolute, the window's end inclusive.
type DetectionObs struct {
	Found              bool
	WindowLo, WindowHi int // −1 without a window
	TPOTP50Ns          float64
	Anomaly            bool
	DeltaPct           float64
	ChangePointSP      int
}

// DetectionScore is the issue-29 scoring of a detector over detection
// suite runs, overall and per class.
type DetectionScore struct {
	Genuine, Found int // runs with a genuine plateau; found among them
	// AbsErr are |TPOT p50 / true level − 1| of the found genuine runs.
	AbsErr []float64
	// NoPlateau runs have none; ConfidentWrong of them were found.
	NoPlateau, ConfidentWrong int
	// Steps are runs with a planted persistent shift of ≥ 2 %; Flagged of
	// them got an anomaly in the planted direction; Straddling found
	// windows reach a super-pass wholly past the planted step (the one
	// holding the step, partly at each level, is the transition).
	Steps, Flagged, Straddling int
	// Steady runs have no persistent shift; FalseShifts of them got one.
	Steady, FalseShifts int
}

// FoundRate is Found/Genuine (NaN without genuine runs).
func (s DetectionScore) FoundRate() float64 { return ratio(s.Found, s.Genuine) }

// ErrQuantile is the q-quantile (nearest rank, q in [0, 1]) of AbsErr, NaN
// when empty.
func (s DetectionScore) ErrQuantile(q float64) float64 {
	if len(s.AbsErr) == 0 {
		return math.NaN()
	}
	e := slices.Clone(s.AbsErr)
	slices.Sort(e)
	k := int(math.Ceil(q*float64(len(e)))) - 1
	return e[min(max(k, 0), len(e)-1)]
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// add scores one run into s.
func (s *DetectionScore) add(run DetectionRun, o DetectionObs) {
	if run.Genuine {
		s.Genuine++
		if o.Found {
			s.Found++
			s.AbsErr = append(s.AbsErr, math.Abs(o.TPOTP50Ns/run.LevelNs-1))
		}
	} else {
		s.NoPlateau++
		if o.Found {
			s.ConfidentWrong++
		}
	}
	switch {
	case math.Abs(run.Shift) >= 0.02:
		s.Steps++
		if o.Anomaly && (o.DeltaPct > 0) == (run.Shift > 0) {
			s.Flagged++
		}
		if o.Found && float64(o.WindowHi) >= math.Ceil(run.ShiftAtSP) {
			s.Straddling++
		}
	case run.Shift == 0 && run.Genuine:
		s.Steady++
		if o.Anomaly {
			s.FalseShifts++
		}
	}
}

// ScoreDetection scores obs (one per run, same order) overall and per
// class.
func ScoreDetection(runs []DetectionRun, obs []DetectionObs) (all DetectionScore, byClass map[string]*DetectionScore) {
	byClass = map[string]*DetectionScore{}
	for i, run := range runs {
		all.add(run, obs[i])
		c := byClass[run.Class]
		if c == nil {
			c = &DetectionScore{}
			byClass[run.Class] = c
		}
		c.add(run, obs[i])
	}
	return all, byClass
}

// Gate lists the issue-29 targets s misses (empty when it meets them all):
// found ≥ 0.97 on genuine plateaus, p95 |TPOT p50 error| ≤ 0.6 %, no
// confident-wrong run, every ≥ 2 % step flagged, at most 1 false shift in
// 50 steady runs.
func (s DetectionScore) Gate() []string {
	var miss []string
	if !(s.FoundRate() >= 0.97) {
		miss = append(miss, fmt.Sprintf("found %d/%d < 0.97", s.Found, s.Genuine))
	}
	if p := s.ErrQuantile(0.95); !(p <= 0.006) {
		miss = append(miss, fmt.Sprintf("p95 |err| %.3f %% > 0.6 %%", 100*p))
	}
	if s.ConfidentWrong > 0 {
		miss = append(miss, fmt.Sprintf("confident-wrong %d/%d", s.ConfidentWrong, s.NoPlateau))
	}
	if s.Flagged < s.Steps {
		miss = append(miss, fmt.Sprintf("steps flagged %d/%d", s.Flagged, s.Steps))
	}
	if 50*s.FalseShifts > s.Steady {
		miss = append(miss, fmt.Sprintf("false shifts %d/%d > 1 in 50", s.FalseShifts, s.Steady))
	}
	return miss
}

// Line is a one-line summary of s.
func (s DetectionScore) Line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "found %d/%d", s.Found, s.Genuine)
	if len(s.AbsErr) > 0 {
		fmt.Fprintf(&b, " · |err| p50 %.3f %% p95 %.3f %% max %.3f %%", 100*s.ErrQuantile(0.5), 100*s.ErrQuantile(0.95),
			100*s.ErrQuantile(1))
	}
	if s.NoPlateau > 0 {
		fmt.Fprintf(&b, " · confident-wrong %d/%d", s.ConfidentWrong, s.NoPlateau)
	}
	if s.Steps > 0 {
		fmt.Fprintf(&b, " · steps flagged %d/%d, straddled %d", s.Flagged, s.Steps, s.Straddling)
	}
	if s.Steady > 0 {
		fmt.Fprintf(&b, " · false shifts %d/%d", s.FalseShifts, s.Steady)
	}
	return b.String()
}
