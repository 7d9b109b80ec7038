package tokenizer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestTablesMatchShared checks that tables_gen.go (go generate) holds
// exactly the data of shared/tokenizers/unicode: Oniguruma's class ranges
// and HF's Unicode 9 NFC data.
func TestTablesMatchShared(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "unicode")
	var classes map[string][][2]rune
	readJSONFile(t, filepath.Join(dir, "onig_classes.json"), &classes)
	if len(classes) != len(onigClasses) {
		t.Errorf("%d classes in the JSON, %d embedded", len(classes), len(onigClasses))
	}
	for name, ranges := range classes {
		got := onigClasses[name]
		want := make([]runeRange, len(ranges))
		for i, r := range ranges {
			want[i] = runeRange{r[0], r[1]}
		}
		if !slices.Equal(got, want) {
			t.Errorf("class %s: embedded ranges differ from onig_classes.json", name)
		}
	}

	var nfc struct {
		Decomp map[string][]rune `json:"decomp"`
		CCC    map[string]uint8  `json:"ccc"`
		Comp   [][3]rune         `json:"comp"`
	}
	readJSONFile(t, filepath.Join(dir, "nfc_hf_unicode9.json"), &nfc)
	tables := nfcTablesLoaded()
	if len(nfc.Decomp) != len(tables.decomp) || len(nfc.CCC) != len(tables.ccc) || len(nfc.Comp) != len(tables.comp) {
		t.Fatalf("sizes: JSON %d/%d/%d, embedded %d/%d/%d", len(nfc.Decomp), len(nfc.CCC), len(nfc.Comp), len(tables.decomp), len(tables.ccc), len(tables.comp))
	}
	for key, d := range nfc.Decomp {
		cp, _ := strconv.Atoi(key)
		if tables.decomp[rune(cp)] != string(d) {
			t.Errorf("decomposition of %U differs", cp)
		}
	}
	for key, c := range nfc.CCC {
		cp, _ := strconv.Atoi(key)
		if tables.ccc[rune(cp)] != c {
			t.Errorf("combining class of %U differs", cp)
		}
	}
	for _, c := range nfc.Comp {
		if tables.comp[[2]rune{c[0], c[1]}] != c[2] {
			t.Errorf("composition %U+%U differs", c[0], c[1])
		}
	}
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
}
