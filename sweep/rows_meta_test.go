package sweep

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"go.yaml.in/yaml/v3"

	"github.com/steadysweep/steadysweep/columnar/batch/arrowbatch"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// parityConfig is what the rows' metadata columns should say of a run,
// read from its config.yaml here, on its own.
type parityConfig struct {
	model, loadPattern string
	concurrency        int64 // 0: null expected
	targetQPS          float64
}

func readParityConfig(t *testing.T, dir string) parityConfig {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type pattern struct {
		Type              string  `yaml:"type"`
		TargetConcurrency int64   `yaml:"target_concurrency"`
		TargetQPS         float64 `yaml:"target_qps"`
	}
	var c struct {
		ModelParams struct {
			Name string `yaml:"name"`
		} `yaml:"model_params"`
		Settings struct {
			LoadPattern *pattern `yaml:"load_pattern"`
		} `yaml:"settings"`
		LoadPattern *pattern `yaml:"load_pattern"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	lp := c.Settings.LoadPattern
	if lp == nil {
		lp = c.LoadPattern
	}
	if lp == nil {
		t.Fatalf("%s: no load pattern in config.yaml", dir)
	}
	pc := parityConfig{model: c.ModelParams.Name, loadPattern: lp.Type, targetQPS: lp.TargetQPS}
	if lp.Type == "concurrency" || lp.Type == "agentic_inference" {
		pc.concurrency = lp.TargetConcurrency
	}
	return pc
}

// countLogSamples counts, straight from events.jsonl, the tracked samples
// (a first ISSUED while performance tracking is on, before session.ended)
// and the failed ones among them: an error.generic, or a sample.complete
// without data, while the sample is pending. Lines that do not parse, or
// lack a string event type or an integer timestamp, are skipped (event-log
// spec §1.10: such a COMPLETE does not end its sample).
func countLogSamples(t *testing.T, path string) (tracked, failed int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	tracking := false
	pending := map[string]bool{} // uuid → failed so far
	done := map[string]bool{}
	for sc.Scan() {
		var ev struct {
			Type string          `json:"event_type"`
			TS   *int64          `json:"timestamp_ns"`
			UUID string          `json:"sample_uuid"`
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.TS == nil {
			continue
		}
		switch ev.Type {
		case "session.start_performance_tracking":
			tracking = true
			continue
		case "session.stop_performance_tracking":
			tracking = false
			continue
		case "session.ended":
			return tracked, failed
		}
		if ev.UUID == "" || done[ev.UUID] {
			continue
		}
		wasFailed, isPending := pending[ev.UUID]
		switch ev.Type {
		case "sample.issued":
			if !isPending && tracking {
				pending[ev.UUID] = false
				tracked++
			}
		case "error.generic":
			if isPending && !wasFailed {
				pending[ev.UUID] = true
				failed++
			}
		case "sample.complete":
			if isPending {
				if !wasFailed && (len(ev.Data) == 0 || string(ev.Data) == "null") {
					failed++
				}
				delete(pending, ev.UUID)
				done[ev.UUID] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return tracked, failed
}

// TestSweepRowsMetadataParity sweeps the shared parity runs under three
// presets and reads the part files back with arrow-go: every column has
// RowsSchema's type, and per row model, load_pattern and concurrency /
// target_qps equal the run's config.yaml, preset the preset the config
// came from, and n_samples / n_failed the tracked and failed samples
// counted from its events.jsonl.
func TestSweepRowsMetadataParity(t *testing.T) {
	runs := parityRuns(t)
	cs, presets, err := Grid{}.NamedConfigs([]string{"default,reference,total"}, nil)
	if err != nil || len(cs) != 3 {
		t.Fatalf("presets: %d configs, %v", len(cs), err)
	}
	presetOf := map[string]string{}
	for i, p := range cs {
		presetOf[sinks.ConfigID(p)] = presets[i]
	}
	mem := checkedMem(t)
	out := t.TempDir()
	o := Options{Runs: runs, Configs: cs, Presets: presets, Out: out, Load: DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}}),
		Analyze: DefaultAnalyzer, Series: DefaultSeries, ToolVersion: "test"}
	if sum, err := Run(context.Background(), o); err != nil || sum.Rows != 54 {
		t.Fatalf("sweep: %+v, %v", sum, err)
	}

	byID := map[string]corpora.RunRef{}
	for _, r := range runs {
		byID[r.RunID()] = r
	}
	want := arrowbatch.ArrowSchema(sinks.RowsSchema())
	seen, failures := 0, 0
	eachRecord(t, filepath.Join(out, "rows"), mem, func(f string, rec arrow.RecordBatch) {
		got := rec.Schema()
		if got.NumFields() != want.NumFields() {
			t.Fatalf("%s: %d columns, RowsSchema has %d", f, got.NumFields(), want.NumFields())
		}
		for i, fd := range want.Fields() {
			if g := got.Field(i); g.Name != fd.Name || !arrow.TypeEqual(g.Type, fd.Type) {
				t.Errorf("column %d: %s %s, want %s %s", i, g.Name, g.Type, fd.Name, fd.Type)
			}
		}
		col := func(name string) arrow.Array { return rec.Column(rec.Schema().FieldIndices(name)[0]) }
		for i := range int(rec.NumRows()) {
			seen++
			ref, ok := byID[stringAt(col("run_id"), i)]
			if !ok {
				t.Fatalf("row %d: unknown run id", seen)
			}
			pc := readParityConfig(t, ref.Path)
			tracked, failed := countLogSamples(t, ref.EventsPath)
			failures += failed
			name := ref.Rel + " " + stringAt(col("config_id"), i)
			if got := stringAt(col("model"), i); got != pc.model {
				t.Errorf("%s: model %q, config.yaml %q", name, got, pc.model)
			}
			if got := stringAt(col("load_pattern"), i); got != pc.loadPattern {
				t.Errorf("%s: load_pattern %q, config.yaml %q", name, got, pc.loadPattern)
			}
			conc := col("concurrency").(*array.Int64)
			if (pc.concurrency == 0) != conc.IsNull(i) || (pc.concurrency != 0 && conc.Value(i) != pc.concurrency) {
				t.Errorf("%s: concurrency %v, config.yaml %d", name, conc.GetOneForMarshal(i), pc.concurrency)
			}
			qps := col("target_qps").(*array.Float64)
			if (pc.targetQPS == 0) != qps.IsNull(i) || (pc.targetQPS != 0 && qps.Value(i) != pc.targetQPS) {
				t.Errorf("%s: target_qps %v, config.yaml %g", name, qps.GetOneForMarshal(i), pc.targetQPS)
			}
			if got, want := stringAt(col("preset"), i), presetOf[stringAt(col("config_id"), i)]; got != want {
				t.Errorf("%s: preset %q, want %q", name, got, want)
			}
			if got := col("n_samples").(*array.Int64).Value(i); got != int64(tracked) {
				t.Errorf("%s: n_samples %d, the log has %d tracked samples", name, got, tracked)
			}
			if got := col("n_failed").(*array.Int64).Value(i); got != int64(failed) {
				t.Errorf("%s: n_failed %d, the log has %d failed tracked samples", name, got, failed)
			}
			if ff := col("failed_frac").(*array.Float64); tracked > 0 && ff.Value(i) != float64(failed)/float64(tracked) {
				t.Errorf("%s: failed_frac %g, want %d/%d", name, ff.Value(i), failed, tracked)
			}
			if col("run_started_ns").IsValid(i) {
				t.Errorf("%s: run_started_ns set on the endpoints client's monotonic clock", name)
			}
			if d := col("run_duration_s").(*array.Float64); d.IsNull(i) || d.Value(i) <= 0 {
				t.Errorf("%s: run_duration_s %v", name, d.GetOneForMarshal(i))
			}
		}
	})
	if seen != 54 {
		t.Errorf("%d rows read back, want 54", seen)
	}
	// conc_failures (84 error events) and agentic_tools (4) plant the
	// failures; the test is void if the log counter finds none.
	if failures == 0 {
		t.Error("no failures counted in the parity logs")
	}
	t.Logf("%d rows; %d failed tracked samples over the 3 presets' rows", seen, failures)
}

// TestRunMetaEpochClock: an AIPerf log is on the wall clock, so the row
// has a run start — the earliest metadata.timestamp_ns of the raw file
// (read here on its own) — and every record is a sample.
func TestRunMetaEpochClock(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "columnar", "testdata", "aiperf_burst")
	runs, errs := corpora.Discover([]string{dir}, nil, nil)
	if len(errs) > 0 || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), errs)
	}
	run, err := DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}})(context.Background(), runs[0])
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "profile_export.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	first, records, errored := int64(-1), 0, 0
	for sc.Scan() {
		var rec struct {
			Metadata struct {
				TimestampNs int64 `json:"timestamp_ns"`
			} `json:"metadata"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		records++
		if len(rec.Error) > 0 && string(rec.Error) != "null" {
			errored++
		}
		if first < 0 || rec.Metadata.TimestampNs < first {
			first = rec.Metadata.TimestampNs
		}
	}
	m := RunMetaOf(run)
	if !m.HasStart || m.RunStartedNs != first || m.NSamples != records {
		t.Errorf("meta %+v; the log: first start %d, %d records, %d with an error", m, first, records, errored)
	}
	if m.Endpoint != "chat localhost:9000" || m.TokenizerSource != "recorded: the aiperf log's own token counts" || !(m.RunDurationS > 0) {
		t.Errorf("endpoint %q, tokenizer source %q, duration %g", m.Endpoint, m.TokenizerSource, m.RunDurationS)
	}
}
