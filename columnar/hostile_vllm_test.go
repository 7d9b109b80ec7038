package columnar

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// TestVLLMArrayBomb is issue 30's 39 KB vLLM .json.gz whose output_lens
// holds 2e7 zeros: the requests were sized by the longest array (~150,000×
// memory per byte on disk). Scaled to 2e6 zeros, met before and after the
// arrays that say how many requests there are: the run keeps vllmResult's
// 4 requests, the surplus is one problem naming the array, and the read
// allocates a bounded amount.
func TestVLLMArrayBomb(t *testing.T) {
	zeros := "[" + strings.Repeat("0,", 2_000_000) + "0]"
	for _, tc := range []struct{ name, from, to string }{
		{"after ttfts", `"output_lens": [5, 4, 0, 0]`, `"output_lens": ` + zeros},
		{"before num_prompts", `"num_prompts": 4,`, `"input_lens": ` + zeros + `, "num_prompts": 4,`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := strings.Replace(vllmResult, tc.from, tc.to, 1)
			if tc.name == "before num_prompts" {
				doc = strings.Replace(doc, `"input_lens": [10, 10, 10, 10], `, "", 1)
			}
			var gz bytes.Buffer
			zw := gzip.NewWriter(&gz)
			zw.Write([]byte(doc))
			zw.Close()
			path := filepath.Join(t.TempDir(), "r.json.gz")
			if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			tab, s := ingestPath(t, path)
			runtime.ReadMemStats(&after)
			checkColumns(t, &s)
			name := "output_lens"
			if tc.name == "before num_prompts" {
				name = "input_lens"
			}
			if s.Len() != 4 || !strings.Contains(warningsOf(tab), name+" (2000001 entries, 4 expected)") {
				t.Fatalf("%d samples, problems %q", s.Len(), warningsOf(tab))
			}
			// Before the request count is known the counts are kept (8
			// bytes each, twice while converted, with append's growth and a
			// number's text): ~110 MB in all, where the code before kept
			// 2,000,001 samples (50 s of CPU here).
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 160<<20 {
				t.Fatalf("%d gzip bytes allocated %d MB", gz.Len(), alloc>>20)
			}
		})
	}
}
