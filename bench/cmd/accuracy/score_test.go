package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// TestNearestRank pins judge.py's p95 = sorted[⌈0.95·n⌉ − 1] (the median
// is stats.Median, Python's statistics.median).
func TestNearestRank(t *testing.T) {
	xs := make([]float64, 24) // the shared set's 24 genuine runs
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	if got := nearestRank(xs, 0.95); got != 23 { // ⌈22.8⌉ − 1 = 22 → 23
		t.Errorf("p95 of 1..24 = %v, want 23", got)
	}
	if got := nearestRank(xs[:1], 0.95); got != 1 {
		t.Errorf("p95 of one value = %v, want it", got)
	}
}

func TestClassOf(t *testing.T) {
	for name, want := range map[string]string{
		"000_clean_exp_c16_n139":     "clean_exp",
		"040_clean_poisson_q1.5_n78": "clean_poisson",
		"107_drift_shortdown_c8_n13": "drift_shortdown",
	} {
		if got := classOf(name); got != want {
			t.Errorf("classOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestScoreRowsMatchesJudgeSummary writes made-up detector outputs for the
// shared accuracy set (some found, some not, some confident-wrong, some
// anomalies, p50 a little off the base level), runs judge.py on them and
// checks that scoreRows over judge_run's rows reproduces every number of
// judge.py's own summary line.
func TestScoreRowsMatchesJudgeSummary(t *testing.T) {
	shared := sharedtest.Dir(t, "accuracy/judge.py")
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not on PATH: judge.py cannot run")
	}
	acc := filepath.Join(shared, "accuracy")
	judgePy := filepath.Join(acc, "judge.py")
	out := t.TempDir()
	ctx := context.Background()
	empty, err := judgeRows(ctx, python, judgePy, acc, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(empty) != 41 {
		t.Fatalf("%d rows, want the 41 shared runs", len(empty))
	}
	for i, r := range empty {
		var truth struct {
			Planted struct {
				Base float64 `json:"tpot_base_ms"`
			} `json:"planted"`
		}
		raw, err := os.ReadFile(filepath.Join(acc, "truth", r.Name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &truth); err != nil {
			t.Fatal(err)
		}
		found := (r.HasSteady && i%7 != 3) || (!r.HasSteady && i%3 == 0)
		ss := map[string]any{"found": found, "anomaly": map[string]any{"detected": i%2 == 0}}
		lo, hi := 2, 6
		if r.Plateau != nil {
			lo, hi = r.Plateau[0], r.Plateau[1]
		}
		ss["window"] = map[string]any{"sp_lo": lo, "sp_hi": hi}
		ss["tpot"] = map[string]any{"p50": truth.Planted.Base * 1e6 * (1 + 0.0007*float64(i%9-3))}
		doc, _ := json.Marshal(map[string]any{"warmup": 0, "steady_state": ss})
		if i != 40 { // one run without output
			if err := os.WriteFile(filepath.Join(out, r.Name+".json"), doc, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	gate, err := runJudge(ctx, python, judgePy, acc, out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := judgeRows(ctx, python, judgePy, acc, out)
	if err != nil {
		t.Fatal(err)
	}
	s := scoreRows(rows)
	re := regexp.MustCompile(`found (\d+)/(\d+)=.*median ([0-9.]+)%.*p95 ([0-9.]+)%.*max ([0-9.]+)%, confident-wrong (\d+)/(\d+)=.*staircase anomaly (\d+)/(\d+), no output (\d+)`)
	m := re.FindStringSubmatch(gate)
	if m == nil {
		t.Fatalf("judge summary %q not in the expected form", gate)
	}
	atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
	ints := []struct {
		name      string
		got, want int
	}{
		{"found", s.found, atoi(m[1])}, {"genuine", s.gen, atoi(m[2])}, {"confident-wrong", s.cw, atoi(m[6])},
		{"no-steady", s.non, atoi(m[7])}, {"anomaly", s.anom, atoi(m[8])}, {"staircases", s.stair, atoi(m[9])},
		{"no output", s.missing, atoi(m[10])},
	}
	for _, c := range ints {
		if c.got != c.want {
			t.Errorf("%s = %d, judge.py %d (%s)", c.name, c.got, c.want, gate)
		}
	}
	for _, c := range []struct {
		name string
		got  float64
		want string
	}{{"median", s.median, m[3]}, {"p95", s.p95, m[4]}, {"max", s.maxErr, m[5]}} {
		if got := fmt.Sprintf("%.2f", 100*c.got); got != c.want {
			t.Errorf("%s |error| %s %%, judge.py %s %% (%s)", c.name, got, c.want, gate)
		}
	}
	if s.found == 0 || math.IsInf(s.median, 1) || s.cw == 0 || s.anom == 0 {
		t.Errorf("the made-up outputs should exercise every metric: %+v", s)
	}
}
