package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// AugmentSummary returns the endpoints result summary (a
// performance/result_summary.json, event-log spec §4) with this result
// added the way the endpoints tooling shapes it:
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
// an error; so is a result of the reference compat, which has neither
// block.
func (r *Result) AugmentSummary(summary []byte) ([]byte, error) {
	if r.Ours == nil {
		return nil, errors.New("augment: the reference compat computes no submission block or early stopping; use --compat steadysweep")
	}
	v, err := ParseOrderedJSON(summary)
	if err != nil {
		return nil, fmt.Errorf("augment: parse result summary: %w", err)
	}
	top, ok := v.(JSONObject)
	if !ok {
		return nil, errors.New("augment: the result summary is not a JSON object")
	}
	es := r.Ours.EarlyStop.Total
	for _, m := range []struct {
		key string
		est EarlyStopEstimate
	}{{"ttft", es.TTFT}, {"tpot", es.TPOT}, {"latency", es.Latency}} {
		i := top.index(m.key)
		if i < 0 {
			continue
		}
		series, ok := top[i].Value.(JSONObject)
		if !ok || len(series) == 0 || series.index("early_stopping_percentiles") >= 0 {
			continue
		}
		field := JSONField{"early_stopping_percentiles", m.est.percentilesJSON()}
		at := series.index("histogram")
		if at < 0 {
			at = len(series)
		}
		series = append(series[:at], append(JSONObject{field}, series[at:]...)...)
		top[i].Value = series
	}
	block := JSONField{"steady_state", r.Ours.Submission.json()}
	if i := top.index("steady_state"); i >= 0 {
		top[i] = block
	} else {
		top = append(top, block)
	}
	return encodePyJSON(top), nil
}

// index returns the position of key in o, or -1.
func (o JSONObject) index(key string) int {
	for i, f := range o {
		if f.Key == key {
			return i
		}
	}
	return -1
}

// ParseOrderedJSON parses one JSON document keeping object key order
// (objects as JSONObject, arrays as []any) and numbers as written
// (json.Number), so it can be compared or re-encoded exactly.
func ParseOrderedJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeOrderedJSON(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

// decodeOrderedJSON reads one JSON value (see ParseOrderedJSON).
func decodeOrderedJSON(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var o JSONObject
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrderedJSON(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, JSONField{k.(string), v})
		}
		if o == nil {
			o = JSONObject{}
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeOrderedJSON(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}
