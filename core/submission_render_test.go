package core_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks/submission"
)

// TestSubmissionYAMLExact pins the block's layout for a staircase.
func TestSubmissionYAMLExact(t *testing.T) {
	block := core.BlockFor(1, 7, core.StatePlateau, 8, true)
	want := `steady_state:
  status: windowable
  verdict: anomaly
  window:
    super_pass_start: 1
    super_pass_end: 6
    super_pass_size: 100
    n_samples: 600
    duration_s: 1199.999999999
  state:
    tpot_p50: Plateau
    tpot_p90: Plateau
  anomaly:
    change_point_super_pass: 7
    delta_pct: 21.5
    plateaus:
      - [1, 6]
      - [7, 9]
`
	if got := submission.PointYAML(block); got != want {
		t.Errorf("YAML:\n%s\nwant\n%s", got, want)
	}
	none := core.Submission{Status: core.StatusPartialDataset, Verdict: core.VerdictNotFound,
		Window: core.SubmissionWindow{SuperPassSize: 400}}
	if got := submission.PointYAML(none); got != "steady_state:\n  status: partial_dataset\n  verdict: not found\n  window: {}\n  state: {}\n" {
		t.Errorf("no-window YAML:\n%s", got)
	}
	var b bytes.Buffer
	if err := submission.WritePointYAML(&b, &core.Result{}); err != nil || b.Len() != 0 {
		t.Errorf("reference result has a block: %q %v", b.String(), err)
	}
	js := pyjson.Marshal(submission.Block(block))
	var m map[string]any
	if err := json.Unmarshal(js, &m); err != nil || m["window"].(map[string]any)["super_pass_end"] != 6.0 {
		t.Errorf("JSON %s: %v", js, err)
	}
}
