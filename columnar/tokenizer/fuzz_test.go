package tokenizer

import (
	"bytes"
	"encoding/json"
	"testing"
)

// tinyDecoder maps each id of the tiny fixture back to its bytes.
func tinyDecoder(t testing.TB) map[uint32]string {
	t.Helper()
	var file struct {
		AddedTokens []addedToken `json:"added_tokens"`
		Model       struct {
			Vocab map[string]uint32 `json:"vocab"`
		} `json:"model"`
	}
	if err := json.Unmarshal(tinyJSON(t), &file); err != nil {
		t.Fatal(err)
	}
	dec := make(map[uint32]string)
	for s, id := range file.Model.Vocab {
		raw, ok := unmapByteLevel(s)
		if !ok {
			t.Fatalf("vocab entry %q is not byte-level", s)
		}
		dec[id] = raw
	}
	for _, a := range file.AddedTokens {
		dec[a.ID] = a.Content
	}
	return dec
}

// FuzzEncode checks, on arbitrary bytes (valid UTF-8 or not), that
// encoding does not panic, that Count equals len(Encode), and that the ids
// decode back to the input exactly: the tiny fixture has no normalizer, and
// byte-level BPE loses nothing.
func FuzzEncode(f *testing.F) {
	for _, seed := range []string{
		"", "hello world", "a  world\r\n", "<|end|><think>", "12345", "it's IT'S x'ſ",
		"e\u0301 日本語 👨\u200d👩\u200d👧", "\xff\xfe\xc3", "\t \u3000\u00a0", "<|end", "\xe4\xb8",
	} {
		f.Add(seed)
	}
	tok := loadTiny(f)
	dec := tinyDecoder(f)
	f.Fuzz(func(t *testing.T, text string) {
		ids := tok.Encode(text)
		if n := tok.Count(text); n != len(ids) {
			t.Fatalf("Count(%q) = %d, len(Encode) = %d", text, n, len(ids))
		}
		var back bytes.Buffer
		for _, id := range ids {
			s, ok := dec[id]
			if !ok {
				t.Fatalf("Encode(%q) produced unknown id %d", text, id)
			}
			back.WriteString(s)
		}
		if back.String() != text {
			t.Fatalf("Encode(%q) decodes to %q", text, back.String())
		}
		if n := (Words{}).Count(text); n < 0 || n > len(text) {
			t.Fatalf("Words.Count(%q) = %d", text, n)
		}
	})
}
