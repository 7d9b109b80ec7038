package htmlpage

import (
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/internal/pyjson"
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

// TestThroughputBlockReasons: with the result's throughput block (issue 14:
// each rate's value, ci95 and the reason for a null), the steady-vs-total
// table takes a rate's interval, and the reason it has none, from there —
// an offline run's per-user rate has no interval over a token-rate
// plateau, and a null rate says why beside it.
func TestThroughputBlockReasons(t *testing.T) {
	rate := func(v any, ci any, reason any) pyjson.Object {
		return pyjson.Object{{Key: "value", Value: v}, {Key: "ci95", Value: ci}, {Key: "reason", Value: reason}}
	}
	res := uniform(pyjson.Object{
		{Key: "steady_state", Value: pyjson.Object{{Key: "tps", Value: pyjson.Object{
			{Key: "per_user", Value: 33.76528265853899}, {Key: "per_user_ci", Value: nil},
			{Key: "system", Value: 4814.939478518355}, {Key: "system_ci", Value: []float64{4721.137217277612, 4908.741739759098}}}}}},
		{Key: "steady", Value: pyjson.Object{{Key: "tps_per_user", Value: 33.76528265853899}, {Key: "tps_system", Value: 4814.939478518355}}},
		{Key: "total", Value: pyjson.Object{{Key: "tps_per_user", Value: 34.8}, {Key: "tps_system", Value: 4254.8}}},
		{Key: "throughput", Value: pyjson.Object{{Key: "basis", Value: "token_rate_plateau"},
			{Key: "system", Value: rate(4814.939478518355, []float64{4721.137217277612, 4908.741739759098}, nil)},
			{Key: "per_user", Value: rate(33.76528265853899, nil, "no per-user interval over a token-rate plateau")}}},
	})
	rows := map[string][]cell{}
	for _, r := range compareTable(res).Rows {
		rows[r[0].Value.Text] = r
	}
	if sub := strings.Join(rows["TPS per user"][1].Sub, ""); sub != "CI n/a — no per-user interval over a token-rate plateau" {
		t.Errorf("per-user CI %q", sub)
	}
	if sub := strings.Join(rows["TPS system"][1].Sub, ""); sub != "[4721.1, 4908.7]" {
		t.Errorf("system CI %q", sub)
	}

	// No window: the rates are null, the throughput block says why.
	res = uniform(pyjson.Object{
		{Key: "steady", Value: pyjson.Object{{Key: "tps_per_user", Value: nil}, {Key: "tps_system", Value: nil}}},
		{Key: "total", Value: pyjson.Object{{Key: "tps_per_user", Value: 17.1}, {Key: "tps_system", Value: 133.8}}},
		{Key: "throughput", Value: pyjson.Object{{Key: "basis", Value: nil},
			{Key: "system", Value: rate(nil, nil, "no window")}, {Key: "per_user", Value: rate(nil, nil, "no window")}}},
	})
	shown := false
	for _, r := range compareTable(res).Rows {
		if r[0].Value.Text == "TPS system" {
			shown = true
			if got := naText(r[1].Value); !r[1].Value.NA || got != "n/a — no window" {
				t.Errorf("null system TPS shown as %q", got)
			}
		}
	}
	if !shown {
		t.Error("no TPS system row")
	}
}
