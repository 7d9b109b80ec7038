package tokenizer

import (
	"path/filepath"
	"strings"
	"testing"
)

type nfcProbe struct {
	In  string `json:"in"`
	NFC string `json:"nfc"`
}

// TestNFCProbes checks the normalizer against HF's NFC output on the
// 50,207 probes of shared/tokenizers/unicode/nfc_probes.jsonl.gz, chosen
// where NFC changes the input or where a modern NFC disagrees with HF's
// Unicode 9 one.
func TestNFCProbes(t *testing.T) {
	probes := readJSONLines[nfcProbe](t, filepath.Join(sharedDir(t), "unicode", "nfc_probes.jsonl.gz"))
	if len(probes) != 50207 {
		t.Fatalf("got %d probes, want 50207", len(probes))
	}
	bad := 0
	for i, p := range probes {
		got := string(appendNFC(nil, p.In))
		if got != p.NFC {
			bad++
			if bad <= 10 {
				t.Errorf("probe %d: NFC(%+q) = %+q, want %+q", i+1, p.In, got, p.NFC)
			}
		}
		// The fast path must never skip a text NFC changes.
		if p.In != p.NFC && !needsNFC(p.In) {
			t.Errorf("probe %d: needsNFC(%+q) = false, but NFC changes it", i+1, p.In)
		}
	}
	t.Logf("%d/%d probes match HF NFC", len(probes)-bad, len(probes))
}

// TestNFCOrdering checks canonical ordering and composition on cases from
// the Unicode standard (UAX #15) and the README: marks sort by combining
// class, stably; a blocked mark does not compose; Unicode 10+ marks are
// left alone because HF's tables are Unicode 9.
func TestNFCOrdering(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\u0301\u0316", "\u00e1\u0316"},  // á then below-mark: ccc 230 and 220 reorder, then a+U+0301 composes
		{"a\u0316\u0301", "\u00e1\u0316"},  // already ordered
		{"\u212b", "\u00c5"},               // singleton Angstrom sign → Å
		{"\u1100\u1161\u11a8", "\uac01"},   // Hangul L+V+T → 각
		{"\uac00\u11a8", "\uac01"},         // LV + T
		{"a\u1df6\u0316", "a\u1df6\u0316"}, // U+1DF6 is Unicode 10: unassigned for HF, no reordering
		{"e\u0301\u0301", "\u00e9\u0301"},  // the second acute is blocked by the first's class
		{">\u0338", "\u226f"},              // composes to NOT GREATER-THAN
		{"\u0301a", "\u0301a"},             // a leading mark stays
		{strings.Repeat("\u0316\u0301", 40), strings.Repeat("\u0316", 40) + strings.Repeat("\u0301", 40)}, // long run, stable
	}
	for _, tt := range tests {
		if got := string(appendNFC(nil, tt.in)); got != tt.want {
			t.Errorf("NFC(%+q) = %+q, want %+q", tt.in, got, tt.want)
		}
	}
}
