package calibrate

import (
	"regexp"
	"testing"

	"github.com/steadysweep/steadysweep/internal/tokenstrings"
)

// suiteNameRE is the regular expression suiteClass replaces (before issue 32).
var suiteNameRE = regexp.MustCompile(`^\d{3}_(.+)_(c\d+|q[0-9.]+)_n\d+$`)

func checkSuiteClass(t *testing.T, name string) {
	t.Helper()
	class, ok := suiteClass(name)
	m := suiteNameRE.FindStringSubmatch(name)
	if ok != (m != nil) || ok && class != m[1] {
		t.Fatalf("suiteClass(%q) = %q, %v; regexp %q", name, class, ok, m)
	}
}

var suiteNameSeeds = []string{
	"", "001_", "001_a_c1_n2", "001_a_b_c1_n2", "001_a_q0.5_n10", "001_a_q._n1", "001_a_q_n1",
	"001_a_c_n1", "001_a_c1_n", "001_a_c1_n1x", "01_a_c1_n1", "0011_a_c1_n1", "001__c1_n1",
	"001_a_c1_n1_c2_n3", "001_a\n_c1_n1", "001_\n_c1_n1", "001_a_c1_n1\n", "001_plateau_drift_q2.5_n200",
	"001_a_c1_n2_n3", "001_a_c1_x_n2", "abc_a_c1_n1", "001_é_c1_n1", "001_a_c1__n1", "001_a_q1_n1_q2_n2",
	"000_x_c12_n__c3_n4",
}

// TestSuiteClassMatchesRegexp: the seeds, then 200,000 names built from
// the pattern's pieces.
func TestSuiteClassMatchesRegexp(t *testing.T) {
	tokens := []string{"001", "0", "9", "_", "c", "q", "n", "_n", "_c", "_q", ".", "x", "\n", "é", "12"}
	tokenstrings.Check(t, suiteNameSeeds, tokens, 200_000, 10, checkSuiteClass)
}

func FuzzSuiteClass(f *testing.F) { tokenstrings.Fuzz(f, suiteNameSeeds, checkSuiteClass) }
