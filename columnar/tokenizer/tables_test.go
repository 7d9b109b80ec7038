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
		got := onigClass(name)
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

// TestPropertyTable: the two-stage table gives every code point exactly
// the properties of the Oniguruma classes holding it (looked up here by a
// binary search of each class's ranges) and NFC-unsafety of the runes
// nfcUnsafeRunes lists; beyond U+10FFFF none.
func TestPropertyTable(t *testing.T) {
	in := func(ranges []runeRange, c rune) bool {
		i, _ := slices.BinarySearchFunc(ranges, c, func(r runeRange, c rune) int {
			switch {
			case r.hi < c:
				return -1
			case r.lo > c:
				return 1
			}
			return 0
		})
		return i < len(ranges) && ranges[i].lo <= c && c <= ranges[i].hi
	}
	unsafe := map[rune]bool{}
	for _, c := range nfcUnsafeRunes() {
		unsafe[c] = true
	}
	table := unicodeProperties()
	for c := rune(0); c <= 0x10FFFF; c++ {
		var want property
		for _, pn := range propertyNames {
			if in(onigClass(pn.name), c) {
				want |= pn.p
			}
		}
		if in(onigClass("s"), c) {
			want |= propSpace
		}
		if unsafe[c] {
			want |= propNFCUnsafe
		}
		if got := table.of(c); got != want {
			t.Fatalf("properties of %U = %b, want %b", c, got, want)
		}
	}
	for _, c := range []rune{-1, 0x110000, 0x7FFFFFFF} {
		if got := table.of(c); got != 0 {
			t.Errorf("properties of %d = %b, want none", c, got)
		}
	}
	distinct := map[property]bool{}
	for _, p := range table.distinct {
		distinct[p] = true
	}
	for _, p := range table.blocks {
		if !distinct[p] {
			t.Fatalf("property word %b missing from distinct", p)
		}
	}
}
