package htmlpage

import (
	"math"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// TestNullWithReason: a rate the analysis cannot support (null in the
// JSON with its reason, issue 14) prints as "n/a — reason" in the
// steady-vs-total table, its CI too; a number prints in its key's unit; a
// CI belongs only to the estimate it was computed for.
func TestNullWithReason(t *testing.T) {
	nan := math.NaN()
	res := &resultjson.Record{Result: &core.Result{
		Steady: core.SteadyState{TPS: &core.TPS{System: nan, SystemCI: [2]float64{nan, nan},
			SystemReason: "burst window: issue span below the median latency",
			PerUser:      12.5, PerUserCI: [2]float64{nan, nan}, PerUserReason: "fewer than 4 batches"}},
		Assessment: &core.Assessment{
			Steady: &core.Totals{TPSSystem: nan, TPSPerUser: 12.5, TPOT: core.Quantiles{P50: 79344945.71875}},
			Total:  &core.Totals{TPSSystem: 94.8, TPSPerUser: 12.1, TPOT: core.Quantiles{P50: 80685727.53333333}},
		},
	}}
	rows := tableRows(t, res)
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
	res = &resultjson.Record{Result: &core.Result{
		Steady: core.SteadyState{TPS: &core.TPS{System: 2617694.0, SystemCI: [2]float64{1, 2}}},
		Assessment: &core.Assessment{
			Steady: &core.Totals{TPSSystem: 5365.0},
			Total:  &core.Totals{TPSSystem: 4254.8},
		},
	}}
	if sub := strings.Join(tableRows(t, res)["TPS system"][1].Sub, ""); sub != "CI n/a — no interval for this estimate" {
		t.Errorf("offline system TPS CI %q: the reference's interval of another estimate", sub)
	}
}

// tableRows are the rows of res's steady-vs-total table by label.
func tableRows(t *testing.T, res *resultjson.Record) map[string][]cell {
	t.Helper()
	rows := map[string][]cell{}
	for _, r := range compareTable(res).Rows {
		rows[r[0].Value.Text] = r
	}
	return rows
}

// TestThroughputBlockReasons: with the result's throughput block (issue 14:
// each rate's value, ci95 and the reason for a null), the steady-vs-total
// table takes a rate's interval, and the reason it has none, from there —
// an offline run's per-user rate has no interval over a token-rate
// plateau, and a null rate says why beside it.
func TestThroughputBlockReasons(t *testing.T) {
	const perUser, system = 33.76528265853899, 4814.939478518355
	nan := math.NaN()
	res := &resultjson.Record{Result: &core.Result{
		Steady: core.SteadyState{TPS: &core.TPS{PerUser: perUser, PerUserCI: [2]float64{nan, nan},
			PerUserReason: "no per-user interval over a token-rate plateau",
			System:        system, SystemCI: [2]float64{4721.137217277612, 4908.741739759098}}},
		Assessment: &core.Assessment{
			Offline: &core.OfflineWindow{}, // the basis: a token-rate plateau
			Steady:  &core.Totals{TPSPerUser: perUser, TPSSystem: system},
			Total:   &core.Totals{TPSPerUser: 34.8, TPSSystem: 4254.8},
		},
	}}
	rows := tableRows(t, res)
	if sub := strings.Join(rows["TPS per user"][1].Sub, ""); sub != "CI n/a — no per-user interval over a token-rate plateau" {
		t.Errorf("per-user CI %q", sub)
	}
	if sub := strings.Join(rows["TPS system"][1].Sub, ""); sub != "[4721.1, 4908.7]" {
		t.Errorf("system CI %q", sub)
	}

	// No window: the rates are null, the throughput block says why.
	res = &resultjson.Record{Result: &core.Result{Assessment: &core.Assessment{
		Total: &core.Totals{TPSPerUser: 17.1, TPSSystem: 133.8},
	}}}
	r, ok := tableRows(t, res)["TPS system"]
	if !ok {
		t.Fatal("no TPS system row")
	}
	if got := naText(r[1].Value); !r[1].Value.NA || got != "n/a — no window" {
		t.Errorf("null system TPS shown as %q", got)
	}
}
