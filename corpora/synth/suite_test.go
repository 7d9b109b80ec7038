package synth

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// simulate runs spec in memory and returns the finished simulation and its
// truth (what Generate writes, without the files).
func simulate(t *testing.T, spec Spec, name string) (*sim, Truth) {
	t.Helper()
	spec = spec.withDefaults()
	if err := spec.validate(); err != nil {
		t.Fatal(err)
	}
	lw := newLineWriter(io.Discard)
	s := newSim(spec, lw)
	s.start()
	s.run()
	if err := lw.close(); err != nil {
		t.Fatal(err)
	}
	return s, s.truth(name)
}

// simulateJudged simulates a suite run and exports its judge truth.
func simulateJudged(t *testing.T, run SuiteRun) (*sim, Truth, JudgeTruth) {
	t.Helper()
	s, truth := simulate(t, run.Spec, run.Name)
	jt, err := truth.Judge(run.Spec, run.Category)
	if err != nil {
		t.Fatal(err)
	}
	return s, truth, jt
}

// judgeShape is judge.py's Shape.base, written from its documentation
// (shared/accuracy/judge.py): the multiplicative TPOT level at x of the
// ramp, step and drift components (noise is not part of the planted level).
func judgeShape(comps [][]any, x float64) float64 {
	m := 1.0
	for _, c := range comps {
		f := func(i int) float64 { return c[i].(float64) }
		switch c[0] {
		case "ramp":
			r0, l := f(1), f(2)
			u := math.Max(x, 0) // x_start = 0: synth runs have no warmup phase
			if c[3] == "exp" {
				m *= 1 - (1-r0)*math.Exp(-u/l)
			} else {
				m *= r0 + (1-r0)*math.Min(u/l, 1)
			}
		case "step":
			if x >= f(1) {
				m *= f(2)
			}
		case "drift":
			x0, x1, tot := f(1), f(2), f(3)
			if x > x0 {
				m *= 1 + tot*math.Min((x-x0)/(x1-x0), 1)
			}
		}
	}
	return m
}

// TestJudgeTruth_PlantedLevelIsTheJudgeShape checks, request by request,
// that what synth planted (without its epoch noise) is what judge.py
// rebuilds from the exported components at x = (pos+1)/N with lag 0:
// tpot_base · S(x), within the 1e-4 by which a settled exponential ramp is
// clamped to 1.
func TestJudgeTruth_PlantedLevelIsTheJudgeShape(t *testing.T) {
	for _, run := range AccuracySuite(1) {
		t.Run(run.Name, func(t *testing.T) {
			s, truth, jt := simulateJudged(t, run)
			// Round-trip through JSON, as judge.py reads it.
			raw, _ := json.Marshal(jt)
			var back struct {
				Load    map[string]any `json:"load"`
				Planted struct {
					Base  float64 `json:"tpot_base_ms"`
					Comps [][]any `json:"tpot_shape_components"`
				} `json:"planted"`
			}
			if err := json.Unmarshal(raw, &back); err != nil {
				t.Fatal(err)
			}
			if _, ok := back.Load["C"]; ok {
				t.Errorf("load has a C key: judge.py would apply a decode lag synth does not have")
			}
			n := float64(truth.SuperpassSize)
			worst := 0.0
			for _, r := range s.tracked() {
				pos := int(r.track)
				want := back.Planted.Base * judgeShape(back.Planted.Comps, float64(pos+1)/n)
				got := r.planted / s.noiseAt(pos) / 1e6
				worst = math.Max(worst, math.Abs(got/want-1))
			}
			if worst > 1.01e-4 {
				t.Errorf("planted level differs from judge.py's shape by up to %.2e (relative)", worst)
			}
		})
	}
}

// judgeFlatRuns is judge.py's Planted.flat_runs over the per-super-pass
// sorted planted values: greedy maximal runs within max/min − 1 ≤ 1 %.
func judgeFlatRuns(spVals [][]float64) [][2]int {
	var out [][2]int
	for k := 0; k < len(spVals); {
		lo, hi := spVals[k][0], spVals[k][len(spVals[k])-1]
		if hi/lo-1 > 0.01 {
			k++
			continue
		}
		e := k + 1
		for ; e < len(spVals); e++ {
			a, b := math.Min(lo, spVals[e][0]), math.Max(hi, spVals[e][len(spVals[e])-1])
			if b/a-1 > 0.01 {
				break
			}
			lo, hi = a, b
		}
		out = append(out, [2]int{k, e})
		k = e
	}
	return out
}

// TestAccuracySuite_PlateausAsPlanted checks the suite's central promise on
// every run, with judge.py's own definitions: clean and
// staircase runs have a genuine plateau (≥ 4 super-passes, ≥ 600 s of issue
// time) that also clears the detector's relaxation term 5 × p90 latency with
// 10 % to spare; drifts and bursts have no 4-super-pass flat run of 600 s.
func TestAccuracySuite_PlateausAsPlanted(t *testing.T) {
	for _, run := range AccuracySuite(1) {
		t.Run(run.Name, func(t *testing.T) {
			s, truth, jt := simulateJudged(t, run)
			n := truth.SuperpassSize
			tracked := s.tracked()
			var spVals [][]float64
			for lo := 0; lo < len(tracked); lo += n {
				var vals []float64
				for _, r := range tracked[lo:min(lo+n, len(tracked))] {
					vals = append(vals, judgeShape(jt.Planted.ShapeComponents, float64(r.track+1)/float64(n)))
				}
				slices.Sort(vals)
				spVals = append(spVals, vals)
			}
			rows := truth.SimulatedPerSP
			spanS := func(lo, hi int) float64 { // judge.py's Planted.span_s
				tot, gaps := 0.0, []float64{}
				for _, r := range rows[lo:hi] {
					tot += r.IssueSpanS
					if r.NIssued > 1 && r.IssueSpanS > 0 {
						gaps = append(gaps, r.IssueSpanS/float64(r.NIssued-1))
					}
				}
				slices.Sort(gaps)
				return tot + float64(max(0, hi-lo-1))*median(gaps)
			}
			var plateau *[2]int
			for _, fr := range judgeFlatRuns(spVals) {
				if fr[1]-fr[0] >= 4 && spanS(fr[0], fr[1]) >= 600 {
					plateau = &fr
					break
				}
			}
			steadyClass := run.Category == CategoryClean || run.Category == CategoryStaircase
			if !steadyClass {
				if plateau != nil {
					t.Errorf("%s has a flat plateau %v of %.0f s", run.Category, *plateau, spanS(plateau[0], plateau[1]))
				}
				return
			}
			if plateau == nil {
				t.Fatalf("no genuine plateau (flat runs %v)", judgeFlatRuns(spVals))
			}
			lat := 0.0
			for _, r := range rows[plateau[0]:plateau[1]] {
				lat = math.Max(lat, r.LatencyP90S)
			}
			need := math.Max(600, 5*lat)
			if d := spanS(plateau[0], plateau[1]); d < 1.1*need {
				t.Errorf("plateau %v lasts %.0f s < 1.1 × %.0f s required", *plateau, d, need)
			}
			if run.Category == CategoryStaircase && !jt.ExpectedVerdict.Anomaly {
				t.Error("staircase without a planted step")
			}
		})
	}
}

func TestAccuracySuite_DeterministicAndCovering(t *testing.T) {
	a, b := AccuracySuite(1), AccuracySuite(1)
	if len(a) < 100 {
		t.Fatalf("%d runs, want ≥ 100", len(a))
	}
	names := map[string]bool{}
	cats := map[string]int{}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Spec.Seed != b[i].Spec.Seed || a[i].Spec.Passes != b[i].Spec.Passes {
			t.Fatalf("run %d differs between two AccuracySuite(1): %+v vs %+v", i, a[i], b[i])
		}
		if names[a[i].Name] {
			t.Errorf("duplicate name %s", a[i].Name)
		}
		names[a[i].Name] = true
		cats[a[i].Category]++
	}
	for _, c := range []string{CategoryClean, CategoryStaircase, CategoryRampOnly, CategoryDrift} {
		if cats[c] < 10 {
			t.Errorf("%d runs of category %s, want ≥ 10", cats[c], c)
		}
	}
	if other := AccuracySuite(2); other[0].Spec.Seed == a[0].Spec.Seed {
		t.Error("seeds 1 and 2 give the same first run")
	}
}

// TestGenerateSuite_Layout writes two runs and checks judge.py's layout:
// runs/NAME/events.jsonl.gz (a complete gzip stream of the events) and
// truth/NAME.json with the judge's keys.
func TestGenerateSuite_Layout(t *testing.T) {
	var pick []SuiteRun
	for _, r := range AccuracySuite(1) {
		if r.Class == "burst" && len(pick) == 0 || r.Class == "clean_flat" && len(pick) == 1 {
			pick = append(pick, r)
		}
	}
	dir := t.TempDir()
	if err := GenerateSuite(dir, pick, true, nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range pick {
		f, err := os.Open(filepath.Join(dir, "runs", r.Name, "events.jsonl.gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		f.Close()
		if err != nil || len(raw) == 0 {
			t.Fatalf("%s: events.jsonl.gz unreadable: %v", r.Name, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "runs", r.Name, "events.jsonl")); !os.IsNotExist(err) {
			t.Errorf("%s: the uncompressed events.jsonl is still there", r.Name)
		}
		var jt map[string]any
		tj, err := os.ReadFile(filepath.Join(dir, "truth", r.Name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(tj, &jt); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"superpass_size", "n_super_passes_in_file", "planted", "counts", "simulated_per_sp", "expected_verdict", "load"} {
			if _, ok := jt[key]; !ok {
				t.Errorf("%s: truth lacks %q", r.Name, key)
			}
		}
		if got := jt["expected_verdict"].(map[string]any)["category"]; got != r.Category {
			t.Errorf("%s: category %v, want %s", r.Name, got, r.Category)
		}
	}
}

func TestJudgeTruth_RejectsBatchDependentTPOT(t *testing.T) {
	spec, _ := PresetSpec("clean_ramp", 1) // BatchH0 0.6: the ramp is a batch fill
	if _, err := (Truth{SuperpassSize: 150}).Judge(spec, CategoryClean); err == nil {
		t.Error("Judge accepted a batch-dependent TPOT")
	}
}
