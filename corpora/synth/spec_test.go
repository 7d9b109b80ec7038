package synth

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerate_InvalidSpecNamesEveryProblem(t *testing.T) {
	_, err := Generate(t.TempDir(), Spec{Mode: "burst", Concurrency: 0, DatasetSize: 10, Passes: 1, OutputTokS: -5})
	if err == nil {
		t.Fatal("Generate accepted an invalid spec")
	}
	for _, want := range []string{`Mode "burst"`, "Concurrency (0)", "OutputTokS (-5)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

// TestGenerate_MaxDurationStopsEarly: with max_duration the session publishes
// STOP and ENDED while requests are in flight (drain skipped), so some tracked
// samples have no COMPLETE and fewer than the planned samples are issued.
func TestGenerate_MaxDurationStopsEarly(t *testing.T) {
	spec := presetSpec(t, "clean_ramp", 2)
	spec.Preset, spec.MaxDurationS = "", 120
	dir := filepath.Join(t.TempDir(), "maxdur")
	truth, err := Generate(dir, spec)
	if err != nil {
		t.Fatal(err)
	}
	if truth.Counts.TrackedIssuedInFile >= 2700 || truth.Counts.TrackedWithoutComplete == 0 {
		t.Errorf("issued %d (planned 2700), without COMPLETE %d; want fewer issued and some cut off",
			truth.Counts.TrackedIssuedInFile, truth.Counts.TrackedWithoutComplete)
	}
	events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
	stop, end := int64(0), int64(0)
	for _, e := range events {
		switch e.str("event_type") {
		case topicStopTrack:
			stop = e.int64("timestamp_ns")
		case topicEnded:
			end = e.int64("timestamp_ns")
		}
	}
	start := events[1].int64("timestamp_ns")
	if d := float64(stop-start) / 1e9; d < 119.9 || d > 120.1 {
		t.Errorf("STOP %.3f s after START, want 120 s", d)
	}
	if gap := float64(end-stop) / 1e6; gap > 10 {
		t.Errorf("ENDED %.1f ms after STOP, want it almost immediate (drain skipped)", gap)
	}
}
