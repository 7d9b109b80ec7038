package submission

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// Augment writes to w the endpoints result summary (a
// performance/result_summary.json, event-log spec §4) with r added the way
// the endpoints tooling shapes it:
//
//   - a top-level "steady_state" object: the submission block
//     (status, verdict, window, state, anomaly), replacing any earlier one;
//   - on "ttft", "tpot" and "latency", an "early_stopping_percentiles" map
//     keyed like the report grid ("99.9" … "50.0"), value the LoadGen
//     estimate over the tracked run or null below its floor — only where
//     the summary lacks one (summaries written before the feature landed;
//     an empty series, {}, stays as written),
//     inserted before "histogram" as the endpoints writer orders it.
//
// Every other key, its order and every number are kept as written. The
// output is indented by two spaces. A summary that is not a JSON object is
// an error; so is a result of the reference compat (ErrNoBlock).
func Augment(w io.Writer, r *core.Result, summary []byte) error {
	if r.Assessment == nil {
		return fmt.Errorf("augment: %w", ErrNoBlock)
	}
	v, err := pyjson.Parse(summary)
	if err != nil {
		return fmt.Errorf("augment: parse result summary: %w", err)
	}
	top, ok := v.(pyjson.Object)
	if !ok {
		return errors.New("augment: the result summary is not a JSON object")
	}
	es := r.Assessment.EarlyStop.Total
	for _, m := range []struct {
		key string
		est core.EarlyStopEstimate
	}{{"ttft", es.TTFT}, {"tpot", es.TPOT}, {"latency", es.Latency}} {
		i := top.Index(m.key)
		if i < 0 {
			continue
		}
		series, ok := top[i].Value.(pyjson.Object)
		if !ok || len(series) == 0 || series.Index("early_stopping_percentiles") >= 0 {
			continue
		}
		field := pyjson.Field{Key: "early_stopping_percentiles", Value: EarlyStopPercentiles(m.est)}
		at := series.Index("histogram")
		if at < 0 {
			at = len(series)
		}
		series = append(series[:at], append(pyjson.Object{field}, series[at:]...)...)
		top[i].Value = series
	}
	block := pyjson.Field{Key: "steady_state", Value: Block(r.Assessment.Submission)}
	if i := top.Index("steady_state"); i >= 0 {
		top[i] = block
	} else {
		top = append(top, block)
	}
	return pyjson.Write(w, top)
}

// GridKey is the grid-convention key of an early-stopping percentile
// ("99.9", "99.0").
func GridKey(p float64) string {
	s := strconv.FormatFloat(p, 'f', -1, 64)
	if math.Trunc(p) == p {
		s += ".0"
	}
	return s
}

// EarlyStopPercentiles maps each grid key ("99.9" … "50.0") to the
// estimate, or null below its floor.
func EarlyStopPercentiles(e core.EarlyStopEstimate) pyjson.Object {
	grid := core.EarlyStopGrid()
	obj := make(pyjson.Object, len(grid))
	for i, p := range grid {
		var v any
		if i < len(e.OK) && e.OK[i] {
			v = e.Values[i]
		}
		obj[i] = pyjson.Field{Key: GridKey(p), Value: v}
	}
	return obj
}
