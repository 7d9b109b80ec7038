package tokenizer

import (
	"path/filepath"
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
