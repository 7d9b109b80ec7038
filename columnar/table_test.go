package columnar

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
)

const smallRun = "testdata/small_run"

func decodeFile(t testing.TB, path string) *contract.Decoded {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d contract.Decoded
	if err := endpoints.DecodeReader(context.Background(), f, endpoints.DecodeOptions{Name: path, Counter: tokenizer.Words{}, Workers: 1}, &d); err != nil {
		t.Fatal(err)
	}
	return &d
}

// TestResolveRunSidecars reads testdata/small_run, whose sidecars are
// copies of the parity run conc_clean_ramp's (run_meta.json rewritten to 50).
func TestResolveRunSidecars(t *testing.T) {
	run, err := ResolveRun(context.Background(), smallRun)
	if err != nil {
		t.Fatal(err)
	}
	want := core.RunInfo{
		DatasetSize: 50, DatasetSizeSource: "run_meta.json", LoadPattern: "concurrency",
		Concurrency: 16, Model: "openai/gpt-oss-120b", Streaming: true, MinDurationS: 600,
		DatasetName: "perf", Endpoint: "openai 10.0.4.17:8000",
	}
	if !reflect.DeepEqual(run.Info, want) {
		t.Errorf("Info = %+v\nwant   %+v", run.Info, want)
	}
	if len(run.Warnings) != 0 {
		t.Errorf("warnings: %v", run.Warnings)
	}
	si := run.Sidecars.SampleIndex
	if si == nil || si.Len() != 305 || si.MaxIndex != 149 {
		t.Errorf("sample index: %+v", si)
	}
	if c := run.Sidecars.Config; c == nil || c.Type != "online" || c.Streaming != "on" || c.NSamplesToIssue != 2700 || c.Warmup.Enabled || len(c.Datasets) != 2 || c.Datasets[1].Type != "accuracy" {
		t.Errorf("config: type %q streaming %q n %d warmup %+v datasets %+v", c.Type, c.Streaming, c.NSamplesToIssue, c.Warmup, c.Datasets)
	}
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestResolveRun(t *testing.T) {
	events := joinLines(lnStart, lnIssue1, lnEnded)
	t.Run("Missing", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "nope")
		_, err := ResolveRun(context.Background(), p)
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no such events file: "+p) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("DirWithoutEvents", func(t *testing.T) {
		dir := t.TempDir()
		_, err := ResolveRun(context.Background(), dir)
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "no events.jsonl under "+dir+" (looked in ./ and ./client/)") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ClientSubdir", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"client/events.jsonl.zst": events, "client/run_meta.json": `{"dataset_size": "200"}`,
			"run_meta.json": `{"dataset_size": 7}`, // not beside the events file: ignored
		})
		run, err := ResolveRun(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if run.EventsPath != filepath.Join(dir, "client", "events.jsonl.zst") || run.Compression != "zstd" || run.Info.DatasetSize != 200 {
			t.Errorf("run = %+v", run)
		}
	})
	t.Run("RootWins", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"events.jsonl": events, "client/events.jsonl": events})
		run, err := ResolveRun(context.Background(), dir)
		if err != nil || run.EventsPath != filepath.Join(dir, "events.jsonl") {
			t.Errorf("run %+v err %v", run, err)
		}
	})
	t.Run("MalformedSidecars", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"events.jsonl":        events,
			"config.yaml":         "model_params: just-a-string\nsettings:\n  load_pattern:\n    type: poisson\n    target_qps: 1.5\n",
			"run_meta.json":       `{"dataset_size": `,
			"sample_idx_map.json": `{"performance": {"a": 3, "b": 9, "c": "x"}}`,
		})
		run, err := ResolveRun(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if run.Info.DatasetSize != 10 || run.Info.DatasetSizeSource != "sample_idx_map.json" || run.Info.LoadPattern != "poisson" || run.Info.TargetQPS != 1.5 {
			t.Errorf("info = %+v", run.Info)
		}
		joined := strings.Join(run.Warnings, "\n")
		for _, w := range []string{"model_params is not a mapping", "run_meta.json: malformed JSON", "1 entries without a non-negative integer index", "fewer entries (2) than max index + 1 (10)"} {
			if !strings.Contains(joined, w) {
				t.Errorf("warnings lack %q:\n%s", w, joined)
			}
		}
	})
	t.Run("SummaryAndSnapshot", func(t *testing.T) {
		// Shapes from event-log spec §4 and §2.3.
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"events.jsonl": events,
			"performance/result_summary.json": `{"version": "0.x", "git_sha": "ea33275", "n_samples_issued": 1000,
				"ttft": {"total": 1, "percentiles": {"99.9": 9.5, "99": 8.0, "50.0": 5.0}},
				"tpot": {}, "run_config": {"load_pattern": {"type": "concurrency", "target_concurrency": 32}}}`,
			"result_summary.json": `{"git_sha": "older"}`, // the pre-#400 location loses
			"metrics/final_snapshot.json": `{"state": "complete", "n_pending_tasks": 0, "metrics": [
				{"type": "counter", "name": "tracked_samples_issued", "value": 1000},
				{"type": "series", "name": "sample_latency_ns", "count": 1000}]}`,
		})
		run, err := ResolveRun(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		rs := run.Sidecars.ResultSummary
		if rs == nil || rs.GitSHA != "ea33275" || rs.NSamplesIssued != 1000 || rs.RunConfig == nil {
			t.Fatalf("result summary %+v", rs)
		}
		for p, want := range map[float64]float64{99.0: 8.0, 99.9: 9.5, 50: 5.0} {
			if v, ok := rs.Lookup("ttft", p); !ok || v != want {
				t.Errorf("ttft p%v = %v %v, want %v", p, v, ok, want)
			}
		}
		if _, ok := rs.Lookup("ttft", 90); ok {
			t.Error("p90 should be absent")
		}
		fsnap := run.Sidecars.FinalSnapshot
		if fsnap == nil || fsnap.State != "complete" || fsnap.Counters["tracked_samples_issued"] != 1000 || len(fsnap.Counters) != 1 {
			t.Errorf("final snapshot %+v", fsnap)
		}
	})
	t.Run("DatasetSizePythonInt", func(t *testing.T) {
		for body, want := range map[string]int{`{"dataset_size": 200.9}`: 200, `{"dataset_size": true}`: 1, `{"dataset_size": 0}`: 0, `{"dataset_size": "abc"}`: 0, `[1]`: 0} {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"events.jsonl": events, "run_meta.json": body})
			run, err := ResolveRun(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if run.Info.DatasetSize != want {
				t.Errorf("%s: dataset size %d, want %d", body, run.Info.DatasetSize, want)
			}
		}
	})
}

// TestTableRoundTrip: Samples → Table → Samples is the identity, with
// uuids and dataset indices from the sidecar.
func TestTableRoundTrip(t *testing.T) {
	run, err := ResolveRun(context.Background(), smallRun)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Ingest(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := decodeFile(t, run.EventsPath)
	got := tab.Samples()
	if !reflect.DeepEqual(got, want.Samples) {
		t.Fatal("Table.Samples() differs from the decoded samples")
	}
	if got.Len() != 305 || tab.Rows != 305 {
		t.Fatalf("rows %d", got.Len())
	}
	for i := 0; i < got.Len(); i++ {
		u := tab.UUID(i)
		if u != want.UUID(i) || tab.DatasetIndex(i) != lookupIndex(run.Sidecars.SampleIndex, u) {
			t.Fatalf("row %d: uuid %s index %d", i, u, tab.DatasetIndex(i))
		}
	}
	if tab.Summary.Samples != 305 || tab.Info.DatasetSize != 50 || tab.Info.Partial {
		t.Errorf("summary %+v info %+v", tab.Summary, tab.Info)
	}
	tb := &tab.Columns[contract.ColOutputTextBytes]
	for i := 0; i < got.Len(); i++ {
		if (got.OutTokens[i] > 0) != (tb.IsValid(i) && tb.Int64s[i] > 0) {
			t.Fatalf("row %d: tokens %d text bytes valid %v", i, got.OutTokens[i], tb.IsValid(i))
		}
	}
}

// TestTokenizeSample: at most K samples per super-pass are counted, with
// the same counts as a full count.
func TestTokenizeSample(t *testing.T) {
	run, err := ResolveRun(context.Background(), smallRun)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := Ingest(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}, TokenizeSample: 5})
	if err != nil {
		t.Fatal(err)
	}
	full := decodeFile(t, run.EventsPath)
	s := tab.Samples()
	perSP, withText := map[int]int{}, map[int]bool{}
	for i := 0; i < s.Len(); i++ {
		if full.Samples.OutTokens[i] >= 0 {
			withText[i/50] = true
		}
		if s.OutTokens[i] < 0 {
			continue
		}
		perSP[i/50]++
		if s.OutTokens[i] != full.Samples.OutTokens[i] {
			t.Errorf("sample %d: sampled count %d, full count %d", i, s.OutTokens[i], full.Samples.OutTokens[i])
		}
	}
	if len(perSP) != len(withText) || len(perSP) < 5 {
		t.Errorf("counted super-passes: %v, super-passes with text: %v", perSP, withText)
	}
	for sp, n := range perSP {
		if n > 5 || n == 0 {
			t.Errorf("super-pass %d: %d counted", sp, n)
		}
	}
	if tab.Summary.TokenizeSample != 5 || tab.Summary.SuperPassSize != 50 {
		t.Errorf("summary: %+v", tab.Summary)
	}
}

func TestCache(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(smallRun, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	runDir := t.TempDir()
	writeFiles(t, runDir, map[string]string{"events.jsonl": string(src), "run_meta.json": `{"dataset_size": 50}`})
	ch := &Cache{Dir: t.TempDir()}
	opts := contract.IngestOptions{Counter: tokenizer.Words{}}
	want := decodeFile(t, filepath.Join(runDir, "events.jsonl"))
	ingest := func(wantHit bool) {
		t.Helper()
		run, tab, hit := resolveCacheIngest(t, ch, runDir, opts)
		if hit != wantHit {
			t.Errorf("hit = %v, want %v (warnings %v)", hit, wantHit, run.Warnings)
		}
		if !reflect.DeepEqual(tab.Samples(), want.Samples) || tab.Summary.Samples != want.Summary.Samples || tab.Info.DatasetSize != 50 {
			t.Errorf("cached table differs")
		}
	}
	lookup := func(wantHit bool) {
		t.Helper()
		run, err := ResolveRun(context.Background(), runDir)
		if err != nil {
			t.Fatal(err)
		}
		l, hit := ch.Lookup(run, opts)
		if hit != wantHit || (l != nil) != wantHit {
			t.Fatalf("Lookup: hit = %v (loaded %v), want %v", hit, l != nil, wantHit)
		}
		if hit && (!reflect.DeepEqual(l.Samples, want.Samples) || l.Info.DatasetSize != 50) {
			t.Errorf("Lookup's columns differ from the decode's")
		}
	}
	// Lookup never decodes: a miss leaves the cache empty.
	lookup(false)
	if entries, _ := filepath.Glob(filepath.Join(ch.Dir, "*.cols")); len(entries) != 0 {
		t.Fatalf("Lookup on a miss wrote %v", entries)
	}
	ingest(false)
	lookup(true)
	ingest(true)
	entries, _ := filepath.Glob(filepath.Join(ch.Dir, "*.cols"))
	if len(entries) != 1 {
		t.Fatalf("entries: %v", entries)
	}
	// A corrupt entry is detected, removed and rebuilt.
	b, _ := os.ReadFile(entries[0])
	b[len(b)/2] ^= 0xff
	os.WriteFile(entries[0], b, 0o644)
	ingest(false)
	ingest(true)
	// A torn entry too.
	entries, _ = filepath.Glob(filepath.Join(ch.Dir, "*.cols"))
	os.Truncate(entries[0], 100)
	ingest(false)
	// Another counter is another entry.
	run, _ := ResolveRun(context.Background(), runDir)
	_, hit, err := ch.Ingest(context.Background(), run, contract.IngestOptions{})
	if err != nil || hit {
		t.Fatalf("other counter: hit %v err %v", hit, err)
	}
	// Changing the events file invalidates the entry.
	writeFiles(t, runDir, map[string]string{"events.jsonl": string(src) + "\n"})
	want = decodeFile(t, filepath.Join(runDir, "events.jsonl"))
	ingest(false)
	// Concurrent ingests of one run all succeed.
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			run, err := ResolveRun(context.Background(), runDir)
			if err != nil {
				t.Error(err)
				return
			}
			tab, _, err := (&Cache{Dir: ch.Dir}).Ingest(context.Background(), run, opts)
			if err != nil {
				t.Error(err)
				return
			}
			if tab.Summary.Samples != want.Summary.Samples {
				t.Error("concurrent ingest differs")
			}
		}()
	}
	wg.Wait()
}

// TestIngestCompressed: a run whose log is gzip or zstd compressed ingests
// to the same table as the plain log.
func TestIngestCompressed(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(smallRun, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := decodeFile(t, filepath.Join(smallRun, "events.jsonl"))
	for kind, name := range map[string]string{"gzip": "events.jsonl.gz", "zstd": "events.jsonl.zst"} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{name: string(compressed(t, kind, src))})
		run, err := ResolveRun(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if run.Compression != kind {
			t.Errorf("compression %q, want %q", run.Compression, kind)
		}
		tab, err := Ingest(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(tab.Samples(), want.Samples) || tab.Summary.Bytes != int64(len(src)) || tab.Summary.ProblemTotal() != 0 {
			t.Errorf("%s: table differs from the plain decode (bytes %d, problems %v)", kind, tab.Summary.Bytes, tab.Summary.Warnings())
		}
	}
}

func lookupIndex(si *sidecar.SampleIndex, uuid string) int64 {
	v, _ := si.Lookup(uuid)
	return v
}
