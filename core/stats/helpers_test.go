package stats

import (
	"encoding/json"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Tolerances of ../shared/vectors/README.md.
const (
	tolRel  = 1e-9  // statistics: S, Var, z, slope, K, se, t, MSER curve
	tolAbs  = 1e-12 // absolute floor for values near 0
	tolRelP = 1e-7  // p-values against p_sf / p_capped
)

// sharedDir returns the shared material directory, ../shared relative to the
// repository root (the directory holding go.mod), or "" if it is absent.
func sharedDir(t testing.TB) string { return sharedtest.Locate() }

// requireShared returns the path of a file under the shared directory or
// skips the test.
func requireShared(t testing.TB, rel string) string {
	t.Helper()
	dir := sharedDir(t)
	if dir == "" {
		t.Skip("../shared not present: skipping the full reference-vector check")
	}
	p := filepath.Join(dir, rel)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("../shared not present: %v", err)
	}
	return p
}

func loadJSON(t testing.TB, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return v
}

// checker compares values and counts the checks made.
type checker struct {
	t      testing.TB
	prefix string
	n      int
}

func (c *checker) fail(name string, got, want any) {
	c.t.Helper()
	c.t.Errorf("%s%s:\ngot  %v\nwant %v", c.prefix, name, got, want)
}

// near reports whether got is within rel (relative) or abs (absolute) of
// want; NaN matches NaN (a null in the vectors).
func near(got, want, rel, abs float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	if got == want {
		return true
	}
	d := math.Abs(got - want)
	return d <= abs || d <= rel*math.Abs(want)
}

func (c *checker) float(name string, got, want, rel, abs float64) {
	c.t.Helper()
	c.n++
	if !near(got, want, rel, abs) {
		c.fail(name, got, want)
	}
}

func (c *checker) exact(name string, got, want float64) {
	c.t.Helper()
	c.n++
	if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
		c.fail(name, got, want)
	}
}

// equal is the check of a value compared exactly: c.int, c.bool, c.str.
func equal[T comparable](c *checker, name string, got, want T) {
	c.t.Helper()
	c.n++
	if got != want {
		c.fail(name, got, want)
	}
}

func (c *checker) int(name string, got, want int)    { c.t.Helper(); equal(c, name, got, want) }
func (c *checker) bool(name string, got, want bool)  { c.t.Helper(); equal(c, name, got, want) }
func (c *checker) str(name string, got, want string) { c.t.Helper(); equal(c, name, got, want) }

// obj returns m[key] as an object (nil if absent).
func obj(m map[string]any, key string) map[string]any {
	v, _ := m[key].(map[string]any)
	return v
}

// num returns m[key] as a float, NaN for null; ok is false if absent.
func num(m map[string]any, key string) (float64, bool) {
	v, present := m[key]
	if !present {
		return 0, false
	}
	if v == nil {
		return math.NaN(), true
	}
	f, ok := v.(float64)
	if !ok {
		return 0, false
	}
	return f, true
}

func mustNum(t testing.TB, m map[string]any, key string) float64 {
	t.Helper()
	f, ok := num(m, key)
	if !ok {
		t.Fatalf("vector field %q missing or not a number", key)
	}
	return f
}

func floats(t testing.TB, v any) []float64 {
	t.Helper()
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("expected a JSON array, got %T", v)
	}
	out := make([]float64, len(a))
	for i, e := range a {
		if e == nil {
			out[i] = math.NaN()
			continue
		}
		out[i] = e.(float64)
	}
	return out
}

func seq(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	return xs
}
