package htmlpage

import (
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/sinks/pyjson"
)

// TestNullWithReason: a null value with KEY_reason beside it (the JSON's
// convention for a number the analysis cannot support, issue 14) prints
// as "n/a — reason" in the steady-vs-total table, its CI too; a number
// prints in its key's unit; a CI belongs only to the estimate it was
// computed for.
func TestNullWithReason(t *testing.T) {
	res := uniform(pyjson.Object{
		{Key: "steady", Value: pyjson.Object{
			{Key: "tps_system", Value: nil}, {Key: "tps_system_reason", Value: "burst window: issue span below the median latency"},
			{Key: "tps_per_user", Value: 12.5}, {Key: "tps_per_user_ci", Value: nil}, {Key: "tps_per_user_ci_reason", Value: "fewer than 4 batches"},
			{Key: "tpot_ns", Value: pyjson.Object{{Key: "p50", Value: 79344945.71875}}},
		}},
		{Key: "total", Value: pyjson.Object{{Key: "tps_system", Value: 94.8}, {Key: "tps_per_user", Value: 12.1},
			{Key: "tpot_ns", Value: pyjson.Object{{Key: "p50", Value: 80685727.53333333}}}}},
	})
	rows := map[string][]cell{}
	for _, r := range compareTable(res).Rows {
		rows[r[0].Value.Text] = r
	}
	check := func(row string, col int, want string) {
		t.Helper()
		r, ok := rows[row]
		if !ok {
			t.Fatalf("no row %q in %v", row, rows)
		}
		got := r[col].Value.Text
		if r[col].Value.NA {
			got = naText(r[col].Value)
		}
		if got != want {
			t.Errorf("%s column %d: %q, want %q", row, col, got, want)
		}
	}
	check("TPS system", 1, "n/a — burst window: issue span below the median latency")
	check("TPS system", 2, "94.8 tok/s")
	check("TPS per user", 1, "12.5 tok/s/user")
	if sub := strings.Join(rows["TPS per user"][1].Sub, ""); sub != "CI n/a — fewer than 4 batches" {
		t.Errorf("per-user CI %q", sub)
	}
	check("TPOT p50", 1, "79.34 ms")
	check("TPOT p50", 2, "80.69 ms")

	// A steady_state.tps interval of another estimate is not shown.
	res = uniform(pyjson.Object{
		{Key: "steady_state", Value: pyjson.Object{{Key: "tps", Value: pyjson.Object{{Key: "system", Value: 2617694.0},
			{Key: "system_ci", Value: []float64{1, 2}}}}}},
		{Key: "steady", Value: pyjson.Object{{Key: "tps_system", Value: 5365.0}}},
		{Key: "total", Value: pyjson.Object{{Key: "tps_system", Value: 4254.8}}},
	})
	r := compareTable(res).Rows[0]
	if sub := strings.Join(r[1].Sub, ""); sub != "CI n/a — no interval for this estimate" {
		t.Errorf("offline system TPS CI %q: the reference's interval of another estimate", sub)
	}
}
