package core_test

import (
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// TestReferenceTextWarnings checks the headline lines the parity corpus
// does not reach (its CLI runs enforce the min-duration gate), in the
// formats of detector.md §12: the short-window warning, the anomaly line
// and the skipped-plateau note.
func TestReferenceTextWarnings(t *testing.T) {
	stair := core.MkSeries(append(core.RepeatLevel(100, 50, 6), core.RepeatLevel(200, 60, 6)...), 40)
	r, err := core.AnalyzeRollups(stair, core.TestInfo, core.PostParams(false))
	if err != nil {
		t.Fatal(err)
	}
	text := refText(t, r)
	for _, want := range []string{
		"super-passes: 12 (size 40, warmup 0 [fixed], post-warmup 12)\n\n=== STEADY STATE (headline) ===\n",
		"  window: super-passes 0..5 (post-warmup), 240 samples\n",
		"  TPS per-user: 10000000.0 tok/s/user  CI [10000000.0, 10000000.0]\n",
		"  TPS system:   470588235.3 tok/s        CI [470588235.3, 470588235.3]\n",
		"  WARNING: Window too short -- 0s steady vs 600s desired (floor-dominated); " +
			"the steady number is a best-effort estimate over too little wall-time\n",
		"  ANOMALY: level shift at super-pass 6, TPOT +100.0% toward end of run (likely degradation)\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	skip := core.ConcatPlateaus(core.SpannedSeries(4, 5, 1, 0, 0.1, 40), core.SpannedSeries(8, 6.5, 120, 0, 1, 40))
	r, err = core.AnalyzeRollups(skip, core.TestInfo, core.PostParams(true))
	if err != nil {
		t.Fatal(err)
	}
	const note = "  note: skipped 1 earlier plateau(s) below min-duration; reporting plateau 2 of 2\n"
	if text := refText(t, r); !strings.Contains(text, note) || strings.Contains(text, "WARNING: Window too short") {
		t.Errorf("text lacks the skip note or warns:\n%s", text)
	}
	flat := core.MkSeries(core.RepeatLevel(100, 50, 8), 40)
	r, err = core.AnalyzeRollups(flat, core.TestInfo, core.PostParams(true))
	if err != nil {
		t.Fatal(err)
	}
	const notFound = "  not found: all 1 admissible plateau(s) too short: longest 0s < 600s required " +
		"(floor-dominated); pass --no-min-duration to override\n"
	if text := refText(t, r); !strings.Contains(text, notFound) || strings.Contains(text, "TPS per-user") {
		t.Errorf("all-short text:\n%s", text)
	}
}
