package synth

import "fmt"

// JudgeTruth is a run's planted truth in the schema of the shared accuracy
// set's truth/NAME.json, so its judge (shared/accuracy/judge.py) scores synth
// runs with its own definitions: a sample's planted TPOT is
// tpot_base_ms·S(x), S rebuilt from tpot_shape_components over
// x = (pos+1)/N + lag; a planted plateau is a run of super-passes whose
// per-sample planted TPOT stays within 1 %; the genuine steady region is the
// first such run of ≥ 4 super-passes and ≥ 600 s of issue time (from
// simulated_per_sp); a level shift is a step with |mult − 1| > 5 %.
//
// The mapping is exact for what synth plants over the issue position:
//
//   - synth keys a request's level on its own tracked position pos, so the
//     lag is 0. judge.py computes lag 0 when load has neither "C" nor "qps";
//     Load therefore names them "concurrency" and "poisson_qps".
//   - a step at AtSuperPass a applies from pos/N ≥ a, i.e. x ≥ a + 1/N;
//   - the drift 1 + D·pos/(planned−1) is ("drift", 1/N, planned/N, D);
//   - the ramp is keyed on u = (pos+1)/N = x already. Exponential ramps are
//     exactly 1 in synth once within 1e-4 of it (rampSettled), unclamped in
//     judge.py: the planted values differ there by less than 0.01 %.
//   - epoch noise is listed as ("noise", σ, epoch_sp, 0), which the judge
//     ignores: the planted level is noise-free.
//   - a wave (Spec.WaveAmp) is not listed: judge.py's planted level is its
//     mean, the level the wave oscillates around.
//
// The batch factor must be flat (BatchH0 = 1) for the planted TPOT to be
// tpot_base·S(x): Judge is an error otherwise.
type JudgeTruth struct {
	Name               string           `json:"name"`
	Set                string           `json:"set"`
	Seed               uint64           `json:"seed"`
	Mode               string           `json:"mode"`
	Description        string           `json:"description"`
	DatasetSize        int              `json:"dataset_size"`
	SuperpassSize      int              `json:"superpass_size"`
	NSuperPassesInFile int              `json:"n_super_passes_in_file"`
	Load               JudgeLoad        `json:"load"`
	Planted            JudgePlanted     `json:"planted"`
	Counts             JudgeCounts      `json:"counts"`
	SimulatedPerSP     []SuperPassStats `json:"simulated_per_sp"`
	ExpectedVerdict    JudgeVerdict     `json:"expected_verdict"`
}

// JudgeLoad is the offered load under keys judge.py does not read (see
// JudgeTruth: a lag of 0).
type JudgeLoad struct {
	Concurrency int     `json:"concurrency,omitempty"`
	PoissonQPS  float64 `json:"poisson_qps,omitempty"`
}

// JudgePlanted is the planted shape in judge.py's component lists.
type JudgePlanted struct {
	TPOTBaseMs      float64 `json:"tpot_base_ms"`
	ShapeComponents [][]any `json:"tpot_shape_components"`
	// WarmupPhase is always null: synth runs have no warmup phase.
	WarmupPhase    *struct{}          `json:"warmup_phase"`
	ChangePointsSP []JudgeChangePoint `json:"change_points_sp"`
}

// JudgeChangePoint is a planted step: from x ≥ SP the level is ×Mult.
type JudgeChangePoint struct {
	SP   float64 `json:"sp"`
	Mult float64 `json:"mult"`
}

// JudgeCounts holds the one count judge.py reads.
type JudgeCounts struct {
	TrackedIssuedInFile int `json:"tracked_issued_in_file"`
}

// JudgeVerdict is the run's category (clean, staircase, ramp_only, drift)
// and whether a level shift is planted.
type JudgeVerdict struct {
	Category string `json:"category"`
	Anomaly  bool   `json:"anomaly"`
}

// Judge returns the run's truth in judge.py's schema under category. spec is
// the run's Spec as generated (before defaults is fine).
func (t Truth) Judge(spec Spec, category string) (JudgeTruth, error) {
	spec = spec.withDefaults()
	n := float64(t.SuperpassSize)
	if t.SuperpassSize < 1 {
		return JudgeTruth{}, fmt.Errorf("synth: %s: no super-pass size", t.Name)
	}
	if spec.BatchH0 != 1 {
		return JudgeTruth{}, fmt.Errorf("synth: %s: judge truth needs a batch-independent TPOT (BatchH0 = 1, got %v)", t.Name, spec.BatchH0)
	}
	j := JudgeTruth{
		Name: t.Name, Set: t.Set, Seed: t.Seed, Mode: t.Mode, Description: t.Description,
		DatasetSize: t.DatasetSize, SuperpassSize: t.SuperpassSize, NSuperPassesInFile: t.NSuperPassesInFile,
		Load:           JudgeLoad{Concurrency: t.Load.C, PoissonQPS: t.Load.QPS},
		Counts:         JudgeCounts{TrackedIssuedInFile: t.Counts.TrackedIssuedInFile},
		SimulatedPerSP: t.SimulatedPerSP,
	}
	p := JudgePlanted{TPOTBaseMs: t.Planted.TPOTBaseMs, ShapeComponents: [][]any{}, ChangePointsSP: []JudgeChangePoint{}}
	if r := t.Planted.Ramp; r != nil {
		p.ShapeComponents = append(p.ShapeComponents, []any{"ramp", r.From, r.LenSP, r.Kind})
	}
	for _, st := range t.Planted.Steps {
		p.ShapeComponents = append(p.ShapeComponents, []any{"step", st.AtSuperPass + 1/n, st.Mult})
		p.ChangePointsSP = append(p.ChangePointsSP, JudgeChangePoint{SP: st.AtSuperPass + 1/n, Mult: st.Mult})
	}
	if spec.Drift != 0 {
		planned := float64(spec.plannedIssues())
		p.ShapeComponents = append(p.ShapeComponents, []any{"drift", 1 / n, planned / n, spec.Drift})
	}
	for _, nz := range t.Planted.Noise {
		p.ShapeComponents = append(p.ShapeComponents, []any{"noise", nz.Sigma, nz.EpochSP, 0.0})
	}
	j.Planted = p
	j.ExpectedVerdict = JudgeVerdict{Category: category, Anomaly: len(t.Planted.Steps) > 0}
	return j, nil
}
