package compare

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// Side is one analysis as compare reads it: who it is, its outcome, and
// for each metric the reported value and the per-super-pass values over
// its window.
type Side struct {
	// Label names the side in the report (a run path, or sweep output and
	// run); ConfigID and Config its parameter set (id and label).
	Label, ConfigID, Config string
	// Status, Verdict and Reason are the outcome's.
	Status, Verdict, Reason string
	// WindowStart and WindowEnd bound the window (absolute super-passes,
	// end inclusive; −1 without one); SuperpassSize is its super-pass size.
	WindowStart, WindowEnd, SuperpassSize int
	// Values are the reported steady values per Metrics() entry (NaN:
	// null); NoCI marks a reported interval that is null.
	Values []float64
	NoCI   []bool
	// Batches are the per-super-pass values over the window, per metric;
	// BatchNote says why a metric has none when that is not the window's
	// fault (a series missing or at another super-pass size).
	Batches   [][]float64
	BatchNote string
	// noTPOTMean marks a sweep series written before tpot_mean_ns (schema
	// 1): per-user TPS has no batches then.
	noTPOTMean bool
}

// FromResult is the side of a run analysed in-process.
func FromResult(label string, r *core.Result) Side {
	out := r.Outcome()
	sps := r.SuperPasses()
	series := make([]sinks.SeriesRow, len(sps))
	for i, d := range sps {
		series[i] = sinks.SeriesRowOf(d, r.SuperpassSize)
	}
	s := sideOf(label, sinks.ConfigLabel(sinks.ParamsText(r.Params), nil), &out, series, r.SuperpassSize)
	s.ConfigID = sinks.ConfigID(r.Params)
	return s
}

// sideOf builds a side from an outcome and its run's series rows at
// super-pass size seriesS (0: no series).
func sideOf(label, config string, out *core.Outcome, series []sinks.SeriesRow, seriesS int) Side {
	ms := Metrics()
	s := Side{Label: label, Config: config, Status: string(out.Status), Verdict: string(out.Verdict), Reason: out.Reason,
		WindowStart: out.WindowStartSP, WindowEnd: out.WindowEndSP, SuperpassSize: out.SuperpassSize,
		Values: make([]float64, len(ms)), NoCI: make([]bool, len(ms)), Batches: make([][]float64, len(ms))}
	for i, m := range ms {
		v, lo, hi, hasCI := m.steady(out)
		s.Values[i] = v
		s.NoCI[i] = hasCI && !isNaN(v) && (isNaN(lo) || isNaN(hi))
	}
	if s.WindowStart < 0 {
		return s
	}
	switch {
	case len(series) == 0:
		s.BatchNote = "no per-super-pass series"
		return s
	case seriesS != s.SuperpassSize:
		s.BatchNote = fmt.Sprintf("the series is at super-pass size %d, the window at %d", seriesS, s.SuperpassSize)
		return s
	}
	for j := range series {
		if sp := series[j].SP; sp < s.WindowStart || sp > s.WindowEnd {
			continue
		}
		for i, m := range ms {
			if x := m.batch(&series[j]); !isNaN(x) {
				s.Batches[i] = append(s.Batches[i], x)
			}
		}
	}
	return s
}

func isNaN(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }
