package core

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/core/stats"
)

// TestDiagnosticTablesSharedTrajectories: metrics whose trajectories are
// the same floats (ttft_warm_p50/p90 of a run without cold starts) get
// the tables computed for the first of them, which are the tables
// computed for each on its own (covCell, driftEntry); a trajectory that
// differs in one bit, or only in length, is computed on its own.
func TestDiagnosticTablesSharedTrajectories(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	var traj [NumMetrics][]float64
	for m := range traj {
		traj[m] = make([]float64, 30)
		for i := range traj[m] {
			traj[m][i] = 100 + float64(m) + 0.5*float64(i)*float64(m%3) + rng.NormFloat64()
		}
	}
	traj[8] = append([]float64(nil), traj[0]...)
	traj[9] = append([]float64(nil), traj[1]...)
	traj[5] = append([]float64(nil), traj[2]...)
	traj[5][7] = math.Nextafter(traj[5][7], math.Inf(1)) // one bit off
	traj[6] = append([]float64(nil), traj[3][:29]...)    // a prefix
	if got, want := sameTrajectories(&traj), [NumMetrics]int{0, 1, 2, 3, 4, 5, 6, 7, 0, 1}; got != want {
		t.Fatalf("sameTrajectories %v, want %v", got, want)
	}
	sizes, bounds := []int{4, 6, 31}, []float64{0.03, 0.05}
	got := diagnosticTables(&traj, sizes, bounds, 4, 0.05, nil)
	ms := Metrics()
	for i, w := range sizes {
		for m := range NumMetrics {
			whole := allVerdicts(traj[m], 4, 0.05)
			if c := covCell(traj[m], w, ms[m].Gated, bounds); !reflect.DeepEqual(got[i].Cov[m], c) {
				t.Errorf("w=%d %s: CoV cell %+v, alone %+v", w, ms[m].Key, got[i].Cov[m], c)
			}
			if d := driftEntry(traj[m], w, 4, 0.05, whole, nil, nil, nil); !reflect.DeepEqual(got[i].Drift[m], d) {
				t.Errorf("w=%d %s: drift entry differs from the one computed alone", w, ms[m].Key)
			}
		}
	}
}

// TestRollingCellVerdicts: a cell returns the verdicts it was made with,
// each of the four in every position.
func TestRollingCellVerdicts(t *testing.T) {
	all := []stats.Verdict{stats.VerdictUp, stats.VerdictDown, stats.VerdictSteady, stats.VerdictInsufficient}
	for k := range all {
		var v [5]stats.Verdict
		for i := range v {
			v[i] = all[(k+i)%len(all)]
		}
		c := NewRollingCell(3, 9, v)
		if c.Lo != 3 || c.Hi != 9 || c.Verdicts() != v {
			t.Errorf("cell of %v: [%d, %d) %v", v, c.Lo, c.Hi, c.Verdicts())
		}
		for i := range v {
			if c.Verdict(i) != v[i] {
				t.Errorf("cell of %v: verdict %d is %s", v, i, c.Verdict(i))
			}
		}
	}
}
