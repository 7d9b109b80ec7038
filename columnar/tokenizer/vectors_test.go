package tokenizer

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestSharedVectors encodes all 3000 texts of every shared tokenizer and
// compares with the ids HF tokenizers 0.22.2 produced
// (shared/tokenizers/vectors/NAME.jsonl.gz).
func TestSharedVectors(t *testing.T) {
	dir := sharedDir(t)
	for _, name := range sharedTokenizerNames {
		t.Run(name, func(t *testing.T) {
			tok := loadShared(t, name)
			vectors := readJSONLines[idVector](t, filepath.Join(dir, "vectors", name+".jsonl.gz"))
			if len(vectors) != 3000 {
				t.Fatalf("got %d vectors, want 3000", len(vectors))
			}
			mismatches := 0
			for i, v := range vectors {
				got := tok.Encode(v.Text)
				if !slices.Equal(got, v.IDs) {
					mismatches++
					if mismatches <= 5 {
						t.Errorf("text %d %q:\ngot  %v\nwant %v", i+1, truncate(v.Text, 120), got[:min(len(got), 40)], v.IDs[:min(len(v.IDs), 40)])
					}
				}
				if n := tok.Count(v.Text); n != v.Count {
					t.Errorf("text %d: Count = %d, want %d", i+1, n, v.Count)
				}
			}
			t.Logf("%s: %d/%d texts match HF ids exactly", name, len(vectors)-mismatches, len(vectors))
		})
	}
}
