package calibrate

import (
	"math"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// TestStopTotals: rows of one config are summed by model and
// concurrency — wall time over every row, saved time and agreement over
// the rows with a stop — and rows of other configs or without the stop
// columns (older rows files) are left out.
func TestStopTotals(t *testing.T) {
	nan := math.NaN()
	rows := []row{
		{ConfigID: "a", HasStopColumns: true, Model: "m1", Concurrency: 8, RunDurationS: 1000, StopSavedS: 300, StopAgrees: true},
		{ConfigID: "a", HasStopColumns: true, Model: "m1", Concurrency: 8, RunDurationS: 2000, StopSavedS: nan},
		{ConfigID: "a", HasStopColumns: true, Model: "m1", Concurrency: 4, RunDurationS: 500, StopSavedS: 100, StopAgrees: false},
		{ConfigID: "b", HasStopColumns: true, Model: "m1", Concurrency: 8, RunDurationS: 9999, StopSavedS: 9999},
		{ConfigID: "a", Model: "m0", Concurrency: 8, RunDurationS: 9999, StopSavedS: 9999},
	}
	got := stopTotals(rows, "a")
	want := []calibration.StopTotal{
		{Model: "m1", Concurrency: 4, Runs: 1, Stopped: 1, Agree: 0, RunS: 500, SavedS: 100},
		{Model: "m1", Concurrency: 8, Runs: 2, Stopped: 1, Agree: 1, RunS: 3000, SavedS: 300},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("totals %+v, want %+v", got, want)
	}
	r := &calibration.Report{Stops: got, StopsConfig: "a"}
	var b strings.Builder
	if err := r.WriteStops(&b, false); err != nil {
		t.Fatal(err)
	}
	// 400 s of 3500 s: 11.4 %.
	if !strings.Contains(b.String(), "total") || !strings.Contains(b.String(), "11.4%") {
		t.Errorf("table:\n%s", b.String())
	}
}
