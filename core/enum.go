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
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(string(x))
	}
	return strings.Join(q, ", ")
}
