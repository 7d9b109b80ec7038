package submission_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
	"github.com/steadysweep/steadysweep/sinks/submission"
)

// TestAugmentSummary adds the analysis of the committed run
// testdata/goodrun to a result summary in the endpoints layout of July 2026
// (event-log spec §4: early_stopping_percentiles on ttft only). The
// expected values are the analysis' own JSON blocks: the steady_state
// block is its "submission", tpot's inserted early-stopping map is its
// early_stopping.total.tpot_ns; everything the summary held is kept, in
// order, numbers as written.
func TestAugmentSummary(t *testing.T) {
	cr := sinkstest.GoodRun(t)
	res, err := cr.Analyze(core.DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	summary, err := os.ReadFile(filepath.Join("testdata", "result_summary_2026-07.json"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := augment(res, summary)
	if err != nil {
		t.Fatal(err)
	}

	own, err := resultjson.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var ownTree map[string]any
	if err := json.Unmarshal(own, &ownTree); err != nil {
		t.Fatal(err)
	}
	var before, after map[string]any
	mustUnmarshal(t, summary, &before)
	mustUnmarshal(t, out, &after)

	if !reflect.DeepEqual(after["steady_state"], ownTree["submission"]) {
		t.Errorf("steady_state = %v, want the analysis' submission block %v", after["steady_state"], ownTree["submission"])
	}
	wantTPOT := ownTree["early_stopping"].(map[string]any)["total"].(map[string]any)["tpot_ns"].(map[string]any)["percentiles"]
	if got := after["tpot"].(map[string]any)["early_stopping_percentiles"]; !reflect.DeepEqual(got, wantTPOT) {
		t.Errorf("tpot early_stopping_percentiles = %v, want %v", got, wantTPOT)
	}
	for _, key := range []string{"ttft", "latency", "git_sha", "qps", "run_config", "complete"} {
		if !reflect.DeepEqual(after[key], before[key]) {
			t.Errorf("%s changed: %v → %v", key, before[key], after[key])
		}
	}
	wantKeys := append(topKeys(t, summary), "steady_state")
	if got := topKeys(t, out); !reflect.DeepEqual(got, wantKeys) {
		t.Errorf("top-level keys %v, want %v", got, wantKeys)
	}
	if !bytes.Contains(out, []byte(`"min": 1.5`)) || !bytes.Contains(out, []byte(`"tps": 4321.0`)) {
		t.Error("numbers were not kept as written")
	}
	tpot := string(out[bytes.Index(out, []byte(`"tpot"`)):])
	if es, h := bytes.Index([]byte(tpot), []byte("early_stopping_percentiles")), bytes.Index([]byte(tpot), []byte("histogram")); es < 0 || es > h {
		t.Error("tpot's early_stopping_percentiles is not placed before its histogram")
	}

	if _, err := augment(res, []byte(`[1, 2]`)); err == nil {
		t.Error("a summary that is not an object was accepted")
	}
	ref, err := cr.Analyze(core.ReferenceParams())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := augment(ref, summary); !errors.Is(err, submission.ErrNoBlock) {
		t.Error("the reference compat, which has no submission block, augmented a summary")
	}
}

// augment is submission.Augment into a buffer.
func augment(r *core.Result, summary []byte) ([]byte, error) {
	var b bytes.Buffer
	err := submission.Augment(&b, r, summary)
	return b.Bytes(), err
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
}

// topKeys returns the top-level keys of a JSON object in file order.
func topKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
