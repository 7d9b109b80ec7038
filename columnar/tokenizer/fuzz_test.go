package tokenizer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
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

// FuzzEncodeNFC runs the fixture with an NFC normalizer: no panics,
// Count equals len(Encode), and without a '<' (so without added tokens)
// the ids decode to the NFC form of the input.
func FuzzEncodeNFC(f *testing.F) {
	for _, seed := range []string{"e\u0301", "\u1100\u1161\u11a8", "a\u0316\u0301b", ">\u0338", "\u212b\xff\u0301", "<think>\u0338"} {
		f.Add(seed)
	}
	tok, err := LoadBytes(tinyWith(f, `"normalizer": null`, `"normalizer": {"type": "NFC"}`))
	if err != nil {
		f.Fatal(err)
	}
	dec := tinyDecoder(f)
	f.Fuzz(func(t *testing.T, text string) {
		ids := tok.Encode(text)
		if n := tok.Count(text); n != len(ids) {
			t.Fatalf("Count(%q) = %d, len(Encode) = %d", text, n, len(ids))
		}
		if strings.Contains(text, "<") {
			return
		}
		var back bytes.Buffer
		for _, id := range ids {
			back.WriteString(dec[id])
		}
		if want := string(appendNFC(nil, text)); back.String() != want {
			t.Fatalf("Encode(%+q) decodes to %+q, want NFC %+q", text, back.String(), want)
		}
	})
}

// FuzzCompilePattern feeds arbitrary patterns, of any length, to the regex
// compiler and matches them on arbitrary text: compiling must return an
// error ("unsupported: regex", or ErrPatternTooExpensive for a pattern
// shaped for catastrophic backtracking) or a pattern, never panic or hang;
// matching must end within its step budget, either with
// ErrPatternTooExpensive or with pieces that concatenate back to the text.
// The budget is what makes every input fast; no length is capped here.
func FuzzCompilePattern(f *testing.F) {
	for _, seed := range []string{llamaPattern, gptossPattern, deepseekWords, `\p{N}{1,3}`, `[\p{`, `(?i:a`, `[^]`, `\x{110000}`, `a{2,1}`, `(?!a)b|c`,
		explosivePattern, `a*a*a*a*b|a`, strings.Repeat(`(?:a|ab)?`, 12) + `c|.`, strings.Repeat("(", 40), strings.Repeat("a?", 500) + "b"} {
		f.Add(seed, "It's 123 日本語  x\r\n")
		f.Add(seed, strings.Repeat("a", 300))
	}
	f.Fuzz(func(t *testing.T, src, text string) {
		re, err := compilePattern(src)
		if err != nil {
			if !strings.Contains(err.Error(), "unsupported: regex") && !errors.Is(err, ErrPatternTooExpensive) {
				t.Fatalf("compilePattern(%q) error %v is neither unsupported nor too expensive", src, err)
			}
			if len(err.Error()) > 400 {
				t.Fatalf("compilePattern error of %d bytes: %.200s…", len(err.Error()), err)
			}
			return
		}
		var m matcher
		m.reset(context.Background())
		pieces := m.preTokenize([]*pattern{re}, text, nil)
		if m.err != nil {
			if !errors.Is(m.err, ErrPatternTooExpensive) {
				t.Fatalf("pattern %q on %q: error %v", src, text, m.err)
			}
			return
		}
		if got := strings.Join(pieces, ""); got != text {
			t.Fatalf("pattern %q split %q into %q", src, text, pieces)
		}
		for _, p := range pieces {
			if p == "" {
				t.Fatalf("pattern %q split %q with an empty piece", src, text)
			}
		}
	})
}

// FuzzLoadBytes mutates the fixture's JSON: loading must fail with an
// error or give a tokenizer that encodes without panicking.
func FuzzLoadBytes(f *testing.F) {
	f.Add(tinyJSON(f))
	f.Add([]byte(`{"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tok, err := LoadBytes(data)
		if err != nil {
			return
		}
		ids := tok.Encode("hello world <|end|> e\u0301 \xff")
		if tok.Count("hello world <|end|> e\u0301 \xff") != len(ids) {
			t.Fatal("Count differs from len(Encode)")
		}
	})
}
