package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestShortForeignRunIsNotPartialDataset: partial_dataset means the run
// did not cover its dataset once, which only a log with a dataset pass
// (the endpoints client's) can say. GuideLLM replays no dataset in passes:
// its 30-request run (README: 30 successful, counted from the raw file)
// and the 24-request incomplete one are shorter than one default
// super-pass — insufficient_passes, in the status, the submission block
// and the sweep row, with the reason naming why. The planted-truth
// partial_dataset preset (300 issues of a 400-sample dataset) stays
// partial_dataset.
func TestShortForeignRunIsNotPartialDataset(t *testing.T) {
	forRealLogs(t, func(t *testing.T, _ realLog, dir string, facts realFacts) {
		n := facts.requests
		j := analyzeZeroFlags(t, dir)
		s, _ := number(get(j, "superpass_size"))
		if n >= int(s) {
			t.Fatalf("%d requests fill a super-pass of %v: not the short run this test is about", n, s)
		}
		if get(j, "status") != "insufficient_passes" || get(j, "submission.status") != "insufficient_passes" {
			t.Errorf("status %v, submission %v; want insufficient_passes (GuideLLM has no dataset pass)", get(j, "status"), get(j, "submission.status"))
		}
		reason, _ := get(j, "reason").(string)
		if !strings.Contains(reason, "no dataset pass") {
			t.Errorf("reason %q does not say the log has no dataset pass", reason)
		}
		rows := sweepRowsOf(t, dir)
		if len(rows) != 1 || rows[0]["status"] != "insufficient_passes" {
			var got []any
			for _, r := range rows {
				got = append(got, r["status"])
			}
			t.Errorf("sweep row statuses %v, want one insufficient_passes", got)
		}
	}, "guidellm-gptoss20b-sync30", "guidellm05-qwen3-30b-sync-incomplete")
	t.Run("planted partial_dataset", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "run")
		truth := presetTruth(t, dir, "partial_dataset", 1, nil)
		j := analyzeZeroFlags(t, dir)
		if truth.ExpectedVerdict.Verdict != "partial_dataset" || get(j, "status") != "partial_dataset" || get(j, "submission.status") != "partial_dataset" {
			t.Errorf("planted %q; status %v, submission %v", truth.ExpectedVerdict.Verdict, get(j, "status"), get(j, "submission.status"))
		}
	})
}
