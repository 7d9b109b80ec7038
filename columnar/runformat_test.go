package columnar

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// TestFiniteInfoCoversEveryFloat sets every float field of core.RunInfo
// (found by reflection, so a field added later is covered or fails here)
// to NaN, +Inf and -Inf in turn: finiteInfo must leave none of them
// non-finite and warn once per field, naming the run's file.
func TestFiniteInfoCoversEveryFloat(t *testing.T) {
	typ := reflect.TypeOf(core.RunInfo{})
	var floats []int
	for i := range typ.NumField() {
		if typ.Field(i).Type.Kind() == reflect.Float64 {
			floats = append(floats, i)
		}
	}
	if len(floats) == 0 {
		t.Fatal("core.RunInfo has no float fields: the test is stale")
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		run := &contract.Run{EventsPath: "/archive/r/events.jsonl", Format: contract.FormatEndpoints}
		var info core.RunInfo
		v := reflect.ValueOf(&info).Elem()
		for _, i := range floats {
			v.Field(i).SetFloat(bad)
		}
		contract.FiniteInfo(run, &info)
		for _, i := range floats {
			if f := v.Field(i).Float(); f != 0 {
				t.Errorf("%v: RunInfo.%s = %v after finiteInfo, want 0", bad, typ.Field(i).Name, f)
			}
		}
		if len(run.Warnings) != len(floats) {
			t.Errorf("%v: %d warnings for %d fields: %q", bad, len(run.Warnings), len(floats), run.Warnings)
		}
		for _, w := range run.Warnings {
			if !strings.Contains(w, run.EventsPath) || !strings.Contains(w, "not a finite number") {
				t.Errorf("warning %q does not name the file and the fault", w)
			}
		}
	}
}
