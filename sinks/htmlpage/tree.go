package htmlpage

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// node is a JSON value in one uniform shape: pyjson.Object, []any,
// float64 (every number; NaN kept), string, bool or nil. Only the sweep
// page reads one — its rows of OUT/rows by column name, until the typed
// rows reader (issue 27) replaces them; the run page reads its typed
// record (runRecord, resultjson.Record).
type node = any

// uniform converts a pyjson value tree (typed slices, ints, json.Number)
// to the uniform node shape; the tree itself is not changed.
func uniform(v any) node {
	switch x := v.(type) {
	case pyjson.Object:
		o := make(pyjson.Object, len(x))
		for i, f := range x {
			o[i] = pyjson.Field{Key: f.Key, Value: uniform(f.Value)}
		}
		return o
	case []any:
		return uniformList(x)
	case []int:
		return uniformList(x)
	case []float64:
		return uniformList(x)
	case []string:
		return uniformList(x)
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case int32:
		return float64(x)
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if err != nil {
			return math.NaN()
		}
		return f
	case pyjson.Marshaler:
		return uniform(x.PyJSON())
	}
	return v
}

func uniformList[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = uniform(x)
	}
	return out
}

// get walks v by object keys; nil when a key is missing or v is not an
// object on the way.
func get(v node, keys ...string) node {
	for _, k := range keys {
		o, ok := v.(pyjson.Object)
		if !ok {
			return nil
		}
		i := o.Index(k)
		if i < 0 {
			return nil
		}
		v = o[i].Value
	}
	return v
}

// number is v as a float64 and whether it is one (a finite or NaN number;
// null and non-numbers are not).
func number(v node) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// numberAt is get(v, keys...) as a number, NaN when absent or null.
func numberAt(v node, keys ...string) float64 {
	if f, ok := number(get(v, keys...)); ok {
		return f
	}
	return math.NaN()
}

// intAt is get(v, keys...) as an int, def when absent or not a number.
func intAt(v node, def int, keys ...string) int {
	f, ok := number(get(v, keys...))
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return def
	}
	return int(f)
}

// stringAt is get(v, keys...) as a string, "" when absent or not one.
func stringAt(v node, keys ...string) string {
	s, _ := get(v, keys...).(string)
	return s
}

// boolAt is get(v, keys...) as a bool, false when absent or not one.
func boolAt(v node, keys ...string) bool {
	b, _ := get(v, keys...).(bool)
	return b
}

// list is v as a list (nil when it is not one).
func list(v node) []any {
	l, _ := v.([]any)
	return l
}

// reasonFor is the reason given beside a null value: the sibling key
// KEY_reason, else a "reasons" object's KEY, else "" (the convention for
// a value the analysis cannot support: null, and a reason next to it).
func reasonFor(parent node, key string) string {
	if s := stringAt(parent, key+"_reason"); s != "" {
		return s
	}
	return stringAt(parent, "reasons", key)
}
