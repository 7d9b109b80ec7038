// Package resultjson renders a core.Result as JSON: under compat
// reference exactly the reference's --json bytes (detector spec §11: the
// key tree of §11.1, or the NATL dict of §13), under steadysweep the same
// tree followed by the assessment's keys (status, verdict, submission,
// totals, gap, tail cut, early stopping, selection, offline). Python's
// json.dumps layout with indent=2 and Python float repr (internal/pyjson).
//
// Both renderings of a result, this JSON and the HTML run page, read one
// typed Record (New); Tree is its ordered tree, Write encodes it.
package resultjson

import (
	"io"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// Write writes the JSON of r to w (no trailing newline, as the reference).
func Write(w io.Writer, r *core.Result) error {
	tree, err := Tree(r)
	if err != nil {
		return err
	}
	return pyjson.Write(w, tree)
}

// Marshal returns the JSON of r.
func Marshal(r *core.Result) ([]byte, error) {
	tree, err := Tree(r)
	if err != nil {
		return nil, err
	}
	return pyjson.Marshal(tree), nil
}

// Tree returns the ordered JSON tree of r: New(r).Object(). The error
// is the run's Stop hook ending the diagnostic tables.
func Tree(r *core.Result) (pyjson.Object, error) {
	rec, err := New(r)
	if err != nil {
		return nil, err
	}
	return rec.Object(), nil
}

// num is x, or nil (JSON null) when x is NaN or infinite.
func num(x float64) any {
	if x != x || x > 1.7976931348623157e308 || x < -1.7976931348623157e308 {
		return nil
	}
	return x
}

// interval is [lo, hi], or nil (JSON null) when either bound is not a
// number.
func interval(ci [2]float64) any {
	if num(ci[0]) == nil || num(ci[1]) == nil {
		return nil
	}
	return ci[:]
}

// str is s, or nil (JSON null) when empty.
func str[S ~string](s S) any {
	if s == "" {
		return nil
	}
	return string(s)
}
