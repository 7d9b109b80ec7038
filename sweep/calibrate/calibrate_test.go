package calibrate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// fixtureRun is one run of the hand-built sweep: its truth (nil: no
// truth.json) and its outcome under each of the two configs.
type fixtureRun struct {
	name  string
	truth *synth.Truth
	ours  core.Outcome // DefaultParams with min_duration=false
	ref   core.Outcome // ReferenceParams (gated)
}

func warm(x float64) *float64 { return &x }

// truthOf builds a truth with super-passes of 100 issues.
func truthOf(verdict string, found, fnm bool, levels []float64, flat []int, warmupEnd *float64) *synth.Truth {
	return &synth.Truth{SuperpassSize: 100, DatasetSize: 100,
		Planted:         synth.Planted{TPOTLevelMsPerSP: levels, FlatSPs: flat, WarmupEndSP: warmupEnd},
		ExpectedVerdict: synth.Verdict{Verdict: verdict, Found: found, FoundNoMinDuration: fnm}}
}

func rep(v float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func span(lo, hi int) []int {
	var out []int
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// outcome is a row outcome over super-passes of 100 issues; ws < 0 means
// no window, tpotMs ≤ 0 no steady TPOT.
func outcome(status core.Status, verdict core.Verdict, found bool, ws, we int, tpotMs float64) core.Outcome {
	o := core.Outcome{Status: status, Verdict: verdict, Found: found, SuperpassSize: 100,
		WindowStartSP: -1, WindowEndSP: -1, ChangePointSP: -1, SteadyTPOTP50Ns: math.NaN()}
	if ws >= 0 {
		o.WindowStartSP, o.WindowEndSP = ws, we
	}
	if tpotMs > 0 {
		o.SteadyTPOTP50Ns = tpotMs * 1e6
	}
	return o
}

// fixtureRuns: the planted truths and outcomes the expected figures of
// TestCalibrate are worked out from (see the comments there).
func fixtureRuns() []fixtureRun {
	ramp := []float64{8, 10, 10, 10, 10, 10, 10, 10}
	drift := []float64{10, 11, 12, 13, 14, 15, 16, 17}
	step := append(rep(10, 4), rep(15, 4)...)
	const st, ss, nf = core.StatusWindowable, core.VerdictSteadyState, core.VerdictNotFound
	return []fixtureRun{
		{"A_steady_short", truthOf("steady", false, true, ramp, span(1, 8), warm(0.6)),
			outcome(st, ss, true, 1, 7, 10.2), outcome("", nf, false, -1, -1, 0)},
		{"B_steady_long", truthOf("steady", true, true, rep(20, 10), span(2, 10), warm(1.5)),
			outcome(st, ss, true, 3, 9, 22), outcome("", ss, true, 2, 9, 20.4)},
		{"C_drift", truthOf("drifting_up", false, false, drift, nil, warm(0)),
			outcome(st, core.VerdictDriftingUp, false, 2, 5, 13.5), outcome("", ss, true, 0, 3, 11.5)},
		{"D_offline", truthOf("not_supported", false, false, rep(10, 4), nil, nil),
			outcome(core.StatusNotSupported, nf, false, -1, -1, 0), outcome("", nf, false, -1, -1, 0)},
		{"E_anomaly", truthOf("anomaly", false, true, step, span(0, 8), warm(0)),
			outcome(st, core.VerdictAnomaly, true, 0, 3, 10), outcome("", nf, false, -1, -1, 0)},
		{"F_no_truth", nil,
			outcome(st, ss, true, 1, 4, 10), outcome("", ss, true, 1, 4, 10)},
		{"G_unreadable", truthOf("steady", false, true, rep(10, 8), span(0, 8), warm(0)),
			outcomeError(), outcomeError()},
	}
}

func outcomeError() core.Outcome {
	o := outcome(core.StatusError, "", false, -1, -1, 0)
	o.Reason = "decode events.jsonl: line 3: unexpected EOF"
	return o
}

func oursParams() core.Params {
	p := core.DefaultParams()
	p.MinDuration = false
	return p
}

// writeFixture writes the runs (truth.json per run directory) and the
// rows table of both configs into a sweep output directory.
func writeFixture(t *testing.T, runs []fixtureRun) (out string) {
	t.Helper()
	root, out := t.TempDir(), t.TempDir()
	var rows []sinks.Row
	for _, fr := range runs {
		dir := filepath.Join(root, fr.name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if fr.truth != nil {
			fr.truth.Name = fr.name[2:] // the "preset": A_steady_short → steady_short
			data, err := json.Marshal(fr.truth)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, truthFile), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			p core.Params
			o core.Outcome
		}{{oursParams(), fr.ours}, {core.ReferenceParams(), fr.ref}} {
			rows = append(rows, sinks.Row{RunPath: dir, RunID: fr.name, ConfigID: sinks.ConfigID(c.p), Params: c.p, Outcome: c.o})
		}
	}
	w, err := sinks.NewRowWriter(sinks.WriterOptions{Dir: filepath.Join(out, "rows"), RowsPerGroup: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-12 }

func TestCalibrate(t *testing.T) {
	out := writeFixture(t, fixtureRuns())
	r, err := Calibrate(context.Background(), Options{Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows != 14 || r.Runs != 7 || len(r.Configs) != 2 {
		t.Fatalf("rows %d runs %d configs %d, want 14 7 2", r.Rows, r.Runs, len(r.Configs))
	}
	if len(r.NoTruthRuns) != 1 || !strings.HasSuffix(r.NoTruthRuns[0], "F_no_truth") {
		t.Errorf("NoTruthRuns = %v, want [.../F_no_truth]", r.NoTruthRuns)
	}
	if len(r.ErrorRuns) != 1 || !strings.HasSuffix(r.ErrorRuns[0].RunPath, "G_unreadable") || r.ErrorRuns[0].Configs != 2 ||
		!strings.Contains(r.ErrorRuns[0].Reason, "unexpected EOF") {
		t.Errorf("ErrorRuns = %+v, want G_unreadable under 2 configs", r.ErrorRuns)
	}
	oursID, refID := sinks.ConfigID(oursParams()), sinks.ConfigID(core.ReferenceParams())
	if r.Recommended != oursID {
		t.Errorf("recommended %s, want ours %s", r.Recommended, oursID)
	}
	if r.Presets["reference"] != refID || r.Presets["default/no-min-duration"] != oursID || len(r.Presets) != 2 {
		t.Errorf("presets = %v", r.Presets)
	}
	if len(r.Axes) != 2 || r.Axes[0] != "compat" || r.Axes[1] != "min_duration" {
		t.Errorf("axes = %v, want [compat min_duration]", r.Axes)
	}

	ours, ref := r.Config(oursID), r.Config(refID)
	if ours.Rank != 1 || ref.Rank != 2 {
		t.Errorf("ranks ours %d ref %d", ours.Rank, ref.Rank)
	}
	if ours.Label != "steadysweep md=false" || ref.Label != "reference md=true" {
		t.Errorf("labels %q %q", ours.Label, ref.Label)
	}
	for _, c := range []*calibration.ConfigScore{ours, ref} {
		if c.Rows != 7 || c.Errors != 1 || c.NoTruth != 1 || c.Scored != 5 {
			t.Errorf("%s: rows %d errors %d no-truth %d scored %d, want 7 1 1 5", c.Label, c.Rows, c.Errors, c.NoTruth, c.Scored)
		}
	}

	// ours: every label right. errors: A |10.2−10|/10 = .02 (flat SPs
	// 1..7 at 10; the window 1..7), B |22−20|/20 = .10, C drift window
	// SPs 2..5 (none flat) median level 13.5 → 0, E window 0..3 on the
	// first flat level 10 → 0. Sorted 0, 0, .02, .10: median .01,
	// p95 = .02 + .85·.08 = .088. Found A, B, E; B is wrong (> 5 %).
	// Starts: A 1−⌈.6⌉ = 0, B 3−⌈1.5⌉ = 1, E 0−0 = 0.
	checkConfusion(t, ours, map[[2]string]int{
		{"steady", "steady"}: 2, {"drifting_up", "drifting_up"}: 1, {"not_supported", "not_supported"}: 1, {"anomaly", "anomaly"}: 1})
	checkInts(t, ours.Label, map[string][2]int{
		"agree": {ours.Agree, 5}, "eligible": {ours.Eligible, 3}, "found eligible": {ours.FoundEligible, 3},
		"plateau runs": {ours.PlateauRuns, 3}, "found plateau": {ours.FoundPlateau, 3}, "found": {ours.Found, 3},
		"err n": {ours.ErrN, 4}, "cbw": {ours.ConfidentWrong, 1}, "false found": {ours.FalseFound, 0}, "start n": {ours.StartN, 3}})
	checkFloats(t, ours.Label, map[string][2]float64{
		"agree rate": {ours.AgreeRate, 1}, "found rate": {ours.FoundRate, 1}, "plateau found rate": {ours.PlateauFoundRate, 1},
		"err median": {ours.ErrMedian, 0.01}, "err p95": {ours.ErrP95, 0.088}, "cbw rate": {ours.ConfidentWrongRate, 1.0 / 3},
		"start median": {ours.StartErrMedian, 0}, "start abs median": {ours.StartAbsErrMedian, 0},
		// plateau runs only (A, B, E): 0, .02, .10 → median .02, p95 .02 + .9·.08.
		"plateau err median": {ours.PlateauErrMedian, 0.02}, "plateau err p95": {ours.PlateauErrP95, 0.092}})
	if len(ours.Wrong) != 1 || !strings.HasSuffix(ours.Wrong[0].RunPath, "B_steady_long") || !near(ours.Wrong[0].Err, 0.10) ||
		ours.Wrong[0].PlantedNs != 20e6 {
		t.Errorf("%s: wrong rows %+v, want B_steady_long at 10 %% of 20 ms", ours.Label, ours.Wrong)
	}
	if len(ours.Worst) != 4 || !strings.HasSuffix(ours.Worst[0].RunPath, "B_steady_long") || !strings.HasSuffix(ours.Worst[1].RunPath, "A_steady_short") {
		t.Errorf("%s: worst rows %+v, want B, A, then the zero errors", ours.Label, ours.Worst)
	}

	// reference (gated, status ""): A and E not found — agree, the gate
	// rejects their short plateaus; B steady, error .02; C false found
	// (drift truth), error 0 (SPs 0..3 median level 11.5); D not_found
	// vs not_supported. Eligible (found under the gate): B only.
	checkConfusion(t, ref, map[[2]string]int{
		{"steady", "not_found"}: 1, {"steady", "steady"}: 1, {"drifting_up", "steady"}: 1,
		{"not_supported", "not_found"}: 1, {"anomaly", "not_found"}: 1})
	checkInts(t, ref.Label, map[string][2]int{
		"agree": {ref.Agree, 3}, "eligible": {ref.Eligible, 1}, "found eligible": {ref.FoundEligible, 1},
		"plateau runs": {ref.PlateauRuns, 3}, "found plateau": {ref.FoundPlateau, 1}, "found": {ref.Found, 2},
		"err n": {ref.ErrN, 2}, "cbw": {ref.ConfidentWrong, 1}, "false found": {ref.FalseFound, 1}, "start n": {ref.StartN, 1}})
	checkFloats(t, ref.Label, map[string][2]float64{
		"agree rate": {ref.AgreeRate, 0.6}, "found rate": {ref.FoundRate, 1}, "plateau found rate": {ref.PlateauFoundRate, 1.0 / 3},
		"err median": {ref.ErrMedian, 0.01}, "err p95": {ref.ErrP95, 0.019}, "cbw rate": {ref.ConfidentWrongRate, 0.5},
		"start median": {ref.StartErrMedian, 0}, "start abs median": {ref.StartAbsErrMedian, 0},
		"plateau err median": {ref.PlateauErrMedian, 0.02}, "plateau err p95": {ref.PlateauErrP95, 0.02}})
	wantDis := map[calibration.Disagreement]int{
		{Preset: "drift", Truth: "drifting_up", Label: "steady"}: 1, {Preset: "offline", Truth: "not_supported", Label: "not_found"}: 1}
	if !maps.Equal(ref.Disagreements, wantDis) || len(ours.Disagreements) != 0 {
		t.Errorf("disagreements ref %v ours %v, want ref %v and none", ref.Disagreements, ours.Disagreements, wantDis)
	}
	if !maps.Equal(ours.WrongByPreset, map[string]int{"steady_long": 1}) || !maps.Equal(ref.WrongByPreset, map[string]int{"drift": 1}) {
		t.Errorf("wrong by preset: ours %v ref %v", ours.WrongByPreset, ref.WrongByPreset)
	}
	if len(ref.Wrong) != 1 || !strings.HasSuffix(ref.Wrong[0].RunPath, "C_drift") || ref.Wrong[0].Truth != "drifting_up" || ref.Wrong[0].Err != 0 {
		t.Errorf("%s: wrong rows %+v, want the false found C_drift", ref.Label, ref.Wrong)
	}

	checkParquet(t, r.ParquetPath, map[string]float64{oursID: 1.0 / 3, refID: 0.5},
		map[string]core.Params{oursID: oursParams(), refID: core.ReferenceParams()})
	png, err := os.ReadFile(r.PlotPath)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("plot %s: not a PNG (%v)", r.PlotPath, err)
	}
	md, err := os.ReadFile(r.ReportPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**steadysweep md=false**", "| 1 | **steadysweep md=false** | 100.0 % (3/3) |",
		"| 2 | reference md=true | 100.0 % (1/1) | 33.3 % (1/3) | 60.0 % | 1.0 % | 1.9 % | 2.0 % / 2.0 % | 50.0 % (1/2) | 1 |",
		"G_unreadable", "F_no_truth`: no truth.json", "![", "calibration.png", "| steady | **1** | 1 |"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func checkConfusion(t *testing.T, c *calibration.ConfigScore, want map[[2]string]int) {
	t.Helper()
	for i, tl := range calibration.TruthLabels {
		for j, pl := range calibration.PredLabels {
			if got := c.Confusion[i][j]; got != want[[2]string{tl, pl}] {
				t.Errorf("%s: confusion[%s][%s] = %d, want %d", c.Label, tl, pl, got, want[[2]string{tl, pl}])
			}
		}
	}
	if c.Other != 0 {
		t.Errorf("%s: %d rows outside the vocabulary", c.Label, c.Other)
	}
}

func checkInts(t *testing.T, label string, m map[string][2]int) {
	t.Helper()
	for k, v := range m {
		if v[0] != v[1] {
			t.Errorf("%s: %s = %d, want %d", label, k, v[0], v[1])
		}
	}
}

func checkFloats(t *testing.T, label string, m map[string][2]float64) {
	t.Helper()
	for k, v := range m {
		if !near(v[0], v[1]) {
			t.Errorf("%s: %s = %v, want %v", label, k, v[0], v[1])
		}
	}
}

// checkParquet reads calibration.parquet back: one row per config, in
// rank order, with the confident-but-wrong rates given, and the parameter
// columns typed as the rows type them, holding each config's values.
func checkParquet(t *testing.T, path string, cbw map[string]float64, params map[string]core.Params) {
	t.Helper()
	r, err := parquetio.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := r.ReadAll(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := arrowbatch.Record(b, nil)
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.RecordBatch{rec})
	rec.Release()
	defer tbl.Release()
	if int(tbl.NumRows()) != len(cbw) {
		t.Fatalf("calibration.parquet: %d rows, want %d", tbl.NumRows(), len(cbw))
	}
	want := arrowbatch.ArrowSchema(calibration.CalibrationSchema())
	for i, f := range want.Fields() {
		if g := tbl.Schema().Field(i); g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) {
			t.Errorf("calibration.parquet column %d: %s %s, want %s %s", i, g.Name, g.Type, f.Name, f.Type)
		}
	}
	idx := func(n string) int { return tbl.Schema().FieldIndices(n)[0] }
	ids := tbl.Column(idx("config_id")).Data().Chunk(0).(*array.String)
	rates := tbl.Column(idx("confident_wrong_rate")).Data().Chunk(0).(*array.Float64)
	ranks := tbl.Column(idx("rank")).Data().Chunk(0).(*array.Int64)
	for i := range ids.Len() {
		if want, ok := cbw[ids.Value(i)]; !ok || !near(rates.Value(i), want) || ranks.Value(i) != int64(i+1) {
			t.Errorf("parquet row %d: config %s rank %d cbw %v, want rank %d cbw %v", i, ids.Value(i), ranks.Value(i), rates.Value(i), i+1, want)
		}
	}
	rows := arrowbatch.ArrowSchema(sinks.RowsSchema())
	for _, n := range core.Names() {
		col := tbl.Column(idx(n)).Data().Chunk(0)
		if rf := rows.Field(rows.FieldIndices(n)[0]); !arrow.TypeEqual(col.DataType(), rf.Type) {
			t.Errorf("calibration.parquet %s is %s, rows have %s", n, col.DataType(), rf.Type)
		}
		for i := range ids.Len() {
			p := params[ids.Value(i)]
			want, _ := p.Get(n)
			var got string
			switch a := col.(type) {
			case *array.String:
				got = a.Value(i)
			case *array.Float64:
				got = strconv.FormatFloat(a.Value(i), 'g', -1, 64)
			case *array.Int64:
				got = strconv.FormatInt(a.Value(i), 10)
			case *array.Boolean:
				got = strconv.FormatBool(a.Value(i))
			}
			if got != want {
				t.Errorf("calibration.parquet row %d %s = %q, want %q", i, n, got, want)
			}
		}
	}
	if wb := tbl.Column(idx("warmup_band")).Data().Chunk(0).(*array.Float64); wb.Value(0) != params[ids.Value(0)].WarmupBand {
		t.Errorf("warmup_band %v, want the float %v", wb.Value(0), params[ids.Value(0)].WarmupBand)
	}
}

// TestCalibrateNoRows: an empty output directory is an error naming it,
// not a panic or an empty report.
func TestCalibrateNoRows(t *testing.T) {
	out := t.TempDir()
	_, err := Calibrate(context.Background(), Options{Out: out})
	if err == nil || !strings.Contains(err.Error(), "no part files") || !strings.Contains(err.Error(), out) {
		t.Errorf("err = %v, want no part files in %s", err, out)
	}
}

// TestTable: the terminal table fits 80 columns with these labels (the
// config column as wide as the longest; issue 20: a fixed 46-rune column
// made every table 100 wide, its legend up to 100) and marks the
// recommended config.
func TestTable(t *testing.T) {
	out := writeFixture(t, fixtureRuns())
	r, err := Calibrate(context.Background(), Options{Out: out, ReportPath: "-", PlotPath: "-", ParquetPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "calibration.md")); !os.IsNotExist(err) {
		t.Errorf("report written despite ReportPath \"-\" (%v)", err)
	}
	var b bytes.Buffer
	if err := r.Table(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	for _, l := range lines {
		if n := len([]rune(l)); n > 80 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if !strings.HasPrefix(lines[1], "  1*  steadysweep md=false") || !strings.Contains(lines[1], " 100%   100%    1.0%    8.8%    33%") {
		t.Errorf("first table row = %q", lines[1])
	}
	if !strings.HasPrefix(lines[2], "  2   reference md=true") {
		t.Errorf("second table row = %q", lines[2])
	}
	// The err p95 points at the runs behind it (issue 26): the fixture's
	// largest error under the recommended config is B_steady_long, its
	// steady TPOT 22 ms against a planted 20 ms: |22 − 20| / 20 = 10 %.
	worst := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "largest TPOT errors of ") {
			worst = l
		}
	}
	if want := fmt.Sprintf("B_steady_long %.1f %% (steady_long)", 100*math.Abs(22-20)/20.0); !strings.Contains(worst, ": "+want) {
		t.Errorf("largest-errors line = %q, want it to start with %q", worst, want)
	}
	// Every column header is explained under the table (issue 20: cbw and
	// errs were not).
	legend := b.String()[strings.Index(b.String(), "\ncolumns: "):]
	for _, h := range []string{"found", "agree", "err p50", "p95", "cbw", "start", "errs"} {
		if !strings.Contains(legend, " "+h+" ") {
			t.Errorf("column %q is not explained:\n%s", h, legend)
		}
	}
}
