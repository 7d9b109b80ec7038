package tokenizer

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
)

// TestScanVocab compares scanVocab with encoding/json on escapes the
// byte-level vocabularies contain (\" and \\) and on \u escapes, surrogate
// pairs included.
func TestScanVocab(t *testing.T) {
	raw := `{"a": 0, "\"": 1, "\\": 2, "\u00e9t\u00e9": 3, "\ud83d\ude00": 4, "a": 5 ,"Ġthe":6}`
	got, err := scanVocab([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]uint32
	if err := json.Unmarshal([]byte(raw), &want); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Errorf("scanVocab = %v, want %v", got, want)
	}
	for _, bad := range []string{`{"a": -1}`, `{"a" 1}`, `{"a": 1,}`, `{"a": 4294967296}`, `["a"]`, `{"a": 1`, `{"a`} {
		if _, err := scanVocab([]byte(bad)); err == nil {
			t.Errorf("scanVocab(%s) succeeded", bad)
		}
	}
}

func TestScanMerges(t *testing.T) {
	collect := func(raw string) ([]string, error) {
		var out []string
		err := scanMerges([]byte(raw), func(rank int, a, b []byte) error {
			out = append(out, string(a)+"|"+string(b))
			return nil
		})
		return out, err
	}
	for _, raw := range []string{`["a b", "\"c d"]`, `[["a", "b"], ["\"c", "d"]]`, " [ [\"a\",\"b\"] ,\n[\"\\\"c\" , \"d\"] ] "} {
		got, err := collect(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if strings.Join(got, ",") != `a|b,"c|d` {
			t.Errorf("scanMerges(%s) = %q", raw, got)
		}
	}
	for _, raw := range []string{`null`, `[]`} {
		if got, err := collect(raw); err != nil || len(got) != 0 {
			t.Errorf("scanMerges(%s) = %q, %v", raw, got, err)
		}
	}
	for _, bad := range []string{`["a b c"]`, `["ab"]`, `[["a"]]`, `[["a","b"]`, `{"a": "b"}`, `[1]`} {
		if _, err := collect(bad); err == nil {
			t.Errorf("scanMerges(%s) succeeded", bad)
		}
	}
}

// TestDecodeTokenizerFile checks the hand-walked top level against
// encoding/json on the fixture (same fields, same raw members), and that
// malformed documents are rejected.
func TestDecodeTokenizerFile(t *testing.T) {
	data := tinyJSON(t)
	got, err := decodeTokenizerFile(data)
	if err != nil {
		t.Fatal(err)
	}
	var want tokenizerFile
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(&want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("decodeTokenizerFile differs from encoding/json:\ngot  %.300s\nwant %.300s", gotJSON, wantJSON)
	}
	for _, bad := range []string{
		`{"model": {"type": "BPE"}} x`, `{"model": {"type": "BPE"}`, `{"model": {"type": 5}}`, `["model"]`,
		`{"added_tokens": {}}`, `{"model": {"vocab": {"a": 1}, "merges": ["a b"]`, `{"a" "b"}`,
	} {
		if _, err := decodeTokenizerFile([]byte(bad)); err == nil {
			t.Errorf("decodeTokenizerFile(%s) succeeded", bad)
		}
	}
}
