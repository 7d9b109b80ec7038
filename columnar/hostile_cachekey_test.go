package columnar

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// TestCacheKeyForeignSidecar is issue 30's "an edited
// profile_export_aiperf.json is ignored on a column-cache hit (old
// model)": the AIPerf summary's identity is in the key, so the edited
// summary's model (testdata/aiperf_burst's openai/gpt-oss-20b renamed) is
// what the next load reports.
func TestCacheKeyForeignSidecar(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	os.MkdirAll(dir, 0o755)
	for _, name := range []string{"profile_export.jsonl", "profile_export_aiperf.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", "aiperf_burst", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	cache := &Cache{Dir: filepath.Join(t.TempDir(), "cache")}
	load := func() (string, bool) {
		run, err := ResolveRun(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		l, hit, err := cache.Load(context.Background(), run, contract.IngestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return l.Info.Model, hit
	}
	if m, hit := load(); m != "openai/gpt-oss-20b" || hit {
		t.Fatalf("first load: model %q, hit %v", m, hit)
	}
	if m, hit := load(); m != "openai/gpt-oss-20b" || !hit {
		t.Fatalf("second load: model %q, hit %v; want a hit", m, hit)
	}
	p := filepath.Join(dir, "profile_export_aiperf.json")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte("openai/gpt-oss-20b"), []byte("openai/gpt-oss-120"), 1), 0o644)
	if m, _ := load(); m != "openai/gpt-oss-120" {
		t.Fatalf("after editing the summary: model %q, want openai/gpt-oss-120", m)
	}
}

// TestCacheKeyAIPerfInfoFiles: every AIPerf reader (records JSONL and
// records CSV) takes the peer window from the steady-state file beside
// the log, and the cache stores it; an edited steady-state file is read
// again on the next load, not served from the entry (before, only the
// JSONL reader's summary was in the key).
func TestCacheKeyAIPerfInfoFiles(t *testing.T) {
	const start, end, edited = "1000100000000", "1000600000000", "1000700000000"
	steadyName := "profile_export_aiperf_steady_state.json"
	csvDir := t.TempDir()
	writeTemp(t, csvDir, "profile_export_aiperf.json", `{"input_config":{"endpoint":{"model_names":["m"]},"loadgen":{"concurrency":2}}}`)
	writeTemp(t, csvDir, steadyName, aiperfSteady(start, end))
	jsonlDir := aiperfSteadyDir(t, aiperfSteady(start, end))
	for _, c := range []struct{ name, path, dir string }{
		{"records jsonl", jsonlDir, jsonlDir},
		{"records csv", writeTemp(t, csvDir, "profile_export_records.csv", aiperfCSV(aiperfCSVRows...)), csvDir},
	} {
		t.Run(c.name, func(t *testing.T) {
			cache := &Cache{Dir: filepath.Join(t.TempDir(), "cache")}
			windowEnd := func() (string, bool) {
				run, err := ResolveRun(context.Background(), c.path)
				if err != nil {
					t.Fatal(err)
				}
				l, hit, err := cache.Load(context.Background(), run, contract.IngestOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if l.Info.PeerWindow == nil {
					t.Fatalf("no peer window (hit %v)", hit)
				}
				return strconv.FormatInt(l.Info.PeerWindow.EndNs, 10), hit
			}
			if e, hit := windowEnd(); e != end || hit {
				t.Fatalf("first load: window end %s, hit %v; want %s, a miss", e, hit, end)
			}
			if e, hit := windowEnd(); e != end || !hit {
				t.Fatalf("second load: window end %s, hit %v; want %s, a hit", e, hit, end)
			}
			writeTemp(t, c.dir, steadyName, aiperfSteady(start, edited))
			if e, hit := windowEnd(); e != edited || hit {
				t.Fatalf("after editing %s: window end %s, hit %v; want %s, a miss", steadyName, e, hit, edited)
			}
		})
	}
}
