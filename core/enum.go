package core

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The enumerated values of the package (Compat, Method, WarmupMode,
// TrendGate, Path, Status, Verdict, MetricState) are string types whose
// spelling is their wire form (JSON, rows, flags, the canonical parameter
// text), so a value reads the same everywhere it is written. Each type has
// String, Valid and a Parse function built on these helpers.

// parseEnum returns the member of all spelled s, or an error naming what
// was parsed and every valid spelling.
func parseEnum[E ~string](what, s string, all []E) (E, error) {
	if i := slices.Index(all, E(s)); i >= 0 {
		return all[i], nil
	}
	return "", fmt.Errorf("%s: %q is not one of %s", what, s, quoteList(all))
}

// quoteList is the members of xs quoted and comma-separated.
func quoteList[E ~string](xs []E) string {
	return strings.Join(textsOf(xs, func(x E) string { return strconv.Quote(string(x)) }), ", ")
}

// textsOf is text(x) for each x of xs, in order: the spellings of a table
// (parameters, metrics, profiles) or a parameter set's values.
func textsOf[T any](xs []T, text func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = text(x)
	}
	return out
}
