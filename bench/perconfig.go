package bench

import (
	"fmt"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// The per-config target (issue 13): the default preset costs at most 1 ms
// of CPU per parameter set on the sweep path (one core.Run analysed under
// every set in turn, its rollups and memos shared) for a run of 60
// super-passes of 1000 samples, with parameter sets that change every
// trend verdict: alpha swept over 1001 values.

// PerConfigSpec is that run: synth's clean_ramp preset (closed loop, a
// short ramp, then a flat plateau) with 60 passes over a dataset of 1000
// samples (about 60 MB of events).
func PerConfigSpec() synth.Spec {
	spec, err := synth.PresetSpec("clean_ramp", 1)
	if err != nil {
		panic("bench: " + err.Error())
	}
	spec.Passes, spec.DatasetSize = 60, 1000
	return spec
}

// PerConfigTargetUs is the target in µs of CPU per parameter set.
const PerConfigTargetUs = 1000

// AlphaConfigs returns n ≥ 2 parameter sets equal to base but for alpha,
// spread evenly over [0.001, 0.3]: every significance decision of every
// trend test is re-taken per set.
func AlphaConfigs(base core.Params, n int) []core.Params {
	out := make([]core.Params, n)
	for i := range out {
		p := base
		p.Alpha = 0.001 + 0.299*float64(i)/float64(n-1)
		out[i] = p
	}
	return out
}

// SweepPathCost analyses a fresh core.Run of s under every set of cfgs in
// order, taking each result's Outcome as sweep.DefaultAnalyzer does, and
// returns the wall and CPU time per set in µs (the run's preparation, its
// rollup, included) and the number of super-passes analysed.
func SweepPathCost(s *core.Samples, info core.RunInfo, cfgs []core.Params) (wallUs, cpuUs float64, nsp int, err error) {
	if len(cfgs) == 0 {
		return 0, 0, 0, fmt.Errorf("bench: no parameter sets")
	}
	smp, err := Time(func() error {
		run := core.NewRun(s, info)
		for _, p := range cfgs {
			r, err := run.Analyze(p)
			if err != nil {
				return err
			}
			nsp = r.NSuperPasses
			_ = r.Outcome()
		}
		return nil
	})
	n := float64(len(cfgs))
	return smp.Wall / n * 1e6, smp.CPU / n * 1e6, nsp, err
}
