package foreign

import (
	"slices"
	"testing"
)

// TestAIPerfInfoFilesAreTheNames: AIPerfInfoFiles, a literal, is
// AIPerfSummaryNames followed by AIPerfSteadyStateNames.
func TestAIPerfInfoFilesAreTheNames(t *testing.T) {
	if want := slices.Concat(AIPerfSummaryNames, AIPerfSteadyStateNames); !slices.Equal(AIPerfInfoFiles, want) {
		t.Errorf("AIPerfInfoFiles = %q, want %q", AIPerfInfoFiles, want)
	}
}
