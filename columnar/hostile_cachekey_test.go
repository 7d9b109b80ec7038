package columnar

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
