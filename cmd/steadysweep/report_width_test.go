package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestReportFitsAndNamesTheRightSource: the text report of the real
// GuideLLM and AIPerf logs (../shared/realdata), and of the good run
// copied under a 120-character directory, fits the 100 columns it
// promises — a long path is continued on the next line (issue 26: lines
// of 102–123 columns) — and a foreign log's min-duration floor does not
// point at a config.yaml it has not got (issue 26).
func TestReportFitsAndNamesTheRightSource(t *testing.T) {
	real := realDataDir(t)
	deep := filepath.Join(t.TempDir(), strings.Repeat("a_long_directory_name_", 6), "goodrun")
	copyRunTo(t, filepath.Join(repoRoot(t), "testdata", "goodrun"), deep)
	for _, tc := range []struct {
		dir     string
		foreign bool
	}{
		{filepath.Join(real, "guidellm-gptoss20b-sync30"), true},
		{filepath.Join(real, "aiperf-gptoss20b-burst100"), true},
		{deep, false},
	} {
		rep, _ := mustAnalyze(t, tc.dir)
		for _, l := range strings.Split(rep, "\n") {
			if n := utf8.RuneCountInString(l); n > 100 {
				t.Errorf("%s: a line of %d columns: %q", filepath.Base(tc.dir), n, l)
			}
		}
		if _, err := os.Stat(filepath.Join(tc.dir, "config.yaml")); tc.foreign == (err == nil) {
			t.Fatalf("%s: config.yaml present %v, foreign %v", tc.dir, err == nil, tc.foreign)
		}
		if tc.foreign && strings.Contains(rep, "config.yaml") {
			t.Errorf("%s has no config.yaml, yet its report names one:\n%s", filepath.Base(tc.dir), rep)
		}
	}
}
