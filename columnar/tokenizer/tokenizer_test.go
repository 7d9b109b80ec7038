package tokenizer

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The fixture testdata/tiny/tokenizer.json is a byte-level BPE built for
// these tests. Its vocabulary gives each byte b the id b (under the GPT-2
// byte-to-character table), then these merges, in rank order, with ids
// 256…265:
//
//	h e → he (256)       l l → ll (257)      he ll → hell (258)
//	hell o → hello (259) Ġ w → Ġw (260)      o r → or (261)
//	Ġw or → Ġwor (262)   l d → ld (263)      Ġwor ld → Ġworld (264)
//	3 4 → 34 (265)
//
// Added tokens: <|end|> (266, special, normalized=false) and <think> (267,
// not special, normalized=true). The pre-tokenizer is Llama 3's Split regex
// followed by ByteLevel; there is no normalizer ("tinyNFC" below swaps in
// NFC). Ids expected below follow from these rules by hand.
const tinyPath = "testdata/tiny/tokenizer.json"

func loadTiny(t testing.TB) *Tokenizer {
	t.Helper()
	tok, err := Load(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func tinyJSON(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(tinyPath)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// tinyWith returns the fixture with one JSON fragment replaced.
func tinyWith(t testing.TB, old, new string) []byte {
	t.Helper()
	data := tinyJSON(t)
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("fixture lacks %q", old)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1)
}

func TestEncodeTiny(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []uint32
	}{
		{"Empty", "", nil},
		// "hello": h+e (rank 0), l+l (1), he+ll (2), hell+o (3).
		// " world": Ġ+w (4), o+r (5), Ġw+or (6), l+d (7), Ġwor+ld (8).
		{"TwoWords", "hello world", []uint32{259, 264}},
		// The added token is cut out before pre-tokenization, so "world"
		// has no leading space: w, o+r, l+d.
		{"AddedTokenInside", "hello<|end|>world", []uint32{259, 266, 'w', 261, 263}},
		// \s+(?!\S) gives the last space back to the word: "a", " ", " world".
		{"SpaceBeforeWord", "a  world", []uint32{'a', ' ', 264}},
		{"TrailingSpaces", "a  ", []uint32{'a', ' ', ' '}},
		// \p{N}{1,3} splits "12345" into "123" and "45", so the 3 4 merge
		// cannot apply across the boundary; in "345" it can.
		{"DigitChunks", "12345", []uint32{'1', '2', '3', '4', '5'}},
		{"DigitMerge", "345", []uint32{265, '5'}},
		{"NormalizedAddedToken", "<think>", []uint32{267}},
		{"NearMissAddedToken", "<|end|", []uint32{'<', '|', 'e', 'n', 'd', '|'}},
		// The raw added token is cut first; the lone U+0338 (CC B8) is
		// its own segment.
		{"CombiningAfterToken", "<|end|>\u0338", []uint32{266, 0xCC, 0xB8}},
		{"CRLFRun", "\r\n\r\n", []uint32{'\r', '\n', '\r', '\n'}},
		// Bytes that are not UTF-8 are encoded byte by byte, never dropped.
		{"InvalidUTF8", "\xff\xfe", []uint32{0xFF, 0xFE}},
		{"LongestAddedTokenWins", "<|end|><|end|>", []uint32{266, 266}},
	}
	tok := loadTiny(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tok.Encode(tt.text)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Encode(%q):\ngot  %v\nwant %v", tt.text, got, tt.want)
			}
			if n := tok.Count(tt.text); n != len(tt.want) {
				t.Errorf("Count(%q) = %d, want %d", tt.text, n, len(tt.want))
			}
			prefix := []uint32{7}
			if got := tok.AppendEncode(prefix, tt.text); !slices.Equal(got, append([]uint32{7}, tt.want...)) {
				t.Errorf("AppendEncode([7], %q) = %v", tt.text, got)
			}
		})
	}
}

// TestEncodeTinyNFC checks HF's order of operations with an NFC normalizer:
// raw added tokens first, then NFC per segment, then normalized added tokens
// (shared/tokenizers/README.md, "How encoding proceeds").
func TestEncodeTinyNFC(t *testing.T) {
	tok, err := LoadBytes(tinyWith(t, `"normalizer": null`, `"normalizer": {"type": "NFC"}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		text string
		want []uint32
	}{
		// e + U+0301 composes to é (C3 A9).
		{"Composes", "e\u0301", []uint32{0xC3, 0xA9}},
		// The raw token survives; U+0338 alone has nothing to compose with.
		{"RawTokenFirst", "<|end|>\u0338", []uint32{266, 0xCC, 0xB8}},
		// NFC turns ">" + U+0338 into ≯ (E2 89 AF) before normalized tokens
		// are searched, so <think> is not found: pieces "<think" and "≯".
		{"NormalizedTokenDestroyed", "<think>\u0338", []uint32{'<', 't', 'h', 'i', 'n', 'k', 0xE2, 0x89, 0xAF}},
		{"NormalizedToken", "<think>", []uint32{267}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tok.Encode(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("Encode(%q):\ngot  %v\nwant %v", tt.text, got, tt.want)
			}
		})
	}
}

func TestLoadUnsupported(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     string
	}{
		{"Normalizer", `"normalizer": null`, `"normalizer": {"type": "Lowercase"}`, `unsupported: normalizer "Lowercase"`},
		{"PreTokenizer", `"type": "ByteLevel",
    "add_prefix_space": false`, `"type": "Whitespace",
    "add_prefix_space": false`, `unsupported: pre_tokenizer "Whitespace"`},
		{"ByteLevelRegex", `"use_regex": false`, `"use_regex": true`, "unsupported: ByteLevel pre-tokenizer with use_regex"},
		{"SplitBehavior", `"behavior": "Isolated"`, `"behavior": "Removed"`, "unsupported: Split behavior"},
		{"RegexWordBoundary", `(?i:'s|`, `\\b(?i:'s|`, `unsupported: regex escape \b`},
		{"RegexLazy", `\\p{L}+|`, `\\p{L}+?|`, "unsupported: regex lazy"},
		{"Model", `"type": "BPE"`, `"type": "WordPiece"`, `unsupported: model "WordPiece"`},
		{"Truncation", `"truncation": null`, `"truncation": {"max_length": 8}`, "unsupported: truncation"},
		{"Dropout", `"dropout": null`, `"dropout": 0.1`, "unsupported: BPE dropout"},
		{"PostProcessor", `"post_processor": {`, `"post_processor": {"type": "Mystery"}, "x": {`, `unsupported: post_processor "Mystery"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadBytes(tinyWith(t, tt.old, tt.new))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadBytes error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestIdentity checks that the identity is the SHA-256 of the uncompressed
// tokenizer.json, whether it is read plain or gzip-compressed.
func TestIdentity(t *testing.T) {
	data := tinyJSON(t)
	sum := sha256.Sum256(data)
	want := "sha256:" + hex.EncodeToString(sum[:])
	if got := loadTiny(t).Identity(); got != want {
		t.Errorf("Identity() = %s, want %s", got, want)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	path := filepath.Join(t.TempDir(), "tokenizer.json.gz")
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tok, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := tok.Identity(); got != want {
		t.Errorf("Identity() of .gz = %s, want %s", got, want)
	}
	tok, err = LoadBytes(gz.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got := tok.Identity(); got != want {
		t.Errorf("Identity() of LoadBytes(gzip) = %s, want %s", got, want)
	}
	if got := (Words{}).Identity(); got != "words" {
		t.Errorf("Words.Identity() = %q, want words", got)
	}
}

// TestConcurrentEncode encodes from several goroutines at once (run with
// -race) and checks every result against a sequential encoding.
func TestConcurrentEncode(t *testing.T) {
	tok := loadTiny(t)
	texts := []string{"hello world", "a  world", "12345<|end|>x", "e\u0301\r\n", strings.Repeat("hello ", 200)}
	want := make([][]uint32, len(texts))
	for i, s := range texts {
		want[i] = tok.Encode(s)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ids []uint32
			for i := 0; i < 200; i++ {
				k := (i + g) % len(texts)
				ids = tok.AppendEncode(ids[:0], texts[k])
				if !slices.Equal(ids, want[k]) {
					t.Errorf("goroutine %d: Encode(%q) = %v, want %v", g, texts[k], ids, want[k])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestEncodeAllocs checks that encoding allocates nothing once the scratch
// pool and the BPE cache are warm.
func TestEncodeAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	tok := loadTiny(t)
	text := "hello world, it's 12345 <|end|> a  world\r\n"
	ids := tok.AppendEncode(nil, text)
	allocs := testing.AllocsPerRun(100, func() {
		ids = tok.AppendEncode(ids[:0], text)
		_ = tok.Count(text)
	})
	if allocs != 0 {
		t.Errorf("AppendEncode+Count allocate %.1f times per run, want 0", allocs)
	}
}

// TestTokenizerConfig checks the two settings of tokenizer_config.json that
// change transformers' ids: split_special_tokens (special tokens are then
// ordinary text) and added_tokens_decoder entries missing from
// tokenizer.json (transformers adds them).
func TestTokenizerConfig(t *testing.T) {
	tests := []struct {
		name, config, text string
		want               []uint32
	}{
		{"NoConfigEffect", `{"split_special_tokens": false}`, "<|end|>", []uint32{266}},
		{"SplitSpecialTokens", `{"split_special_tokens": true}`, "<|end|>", []uint32{'<', '|', 'e', 'n', 'd', '|', '>'}},
		{"SplitKeepsNonSpecial", `{"split_special_tokens": true}`, "<think>", []uint32{267}},
		{"ExtraAddedToken", `{"added_tokens_decoder": {"300": {"content": "<extra>", "special": true, "normalized": false}}}`, "a<extra>", []uint32{'a', 300}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "tokenizer.json"), tinyJSON(t), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			tok, err := Load(filepath.Join(dir, "tokenizer.json"))
			if err != nil {
				t.Fatal(err)
			}
			if got := tok.Encode(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("Encode(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

// TestAddedTokenFlags follows HF's AddedVocabulary::find_matches: lstrip
// and rstrip widen the token over adjacent whitespace, and a single_word
// token only counts when no word character touches it. None of the shared
// tokenizers sets these flags, so the expectations come from that code.
func TestAddedTokenFlags(t *testing.T) {
	tests := []struct {
		name, flag, text string
		want             []uint32
	}{
		{"RStrip", `"rstrip": true`, "a<|end|>  b", []uint32{'a', 266, 'b'}},
		{"LStrip", `"lstrip": true`, "a  <|end|>b", []uint32{'a', 266, 'b'}},
		{"SingleWordAlone", `"single_word": true`, "a <|end|> b", []uint32{'a', ' ', 266, ' ', 'b'}},
		{"SingleWordTouching", `"single_word": true`, "a<|end|> b", []uint32{'a', '<', '|', 'e', 'n', 'd', '|', '>', ' ', 'b'}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := `"content": "<|end|>",` + "\n" + `   "single_word": false,` + "\n" + `   "lstrip": false,` + "\n" + `   "rstrip": false,`
			flags := strings.NewReplacer(`"single_word": true`, `"single_word": true, "lstrip": false, "rstrip": false`,
				`"lstrip": true`, `"single_word": false, "lstrip": true, "rstrip": false`,
				`"rstrip": true`, `"single_word": false, "lstrip": false, "rstrip": true`).Replace(tt.flag)
			tok, err := LoadBytes(tinyWith(t, old, `"content": "<|end|>", `+flags+`,`))
			if err != nil {
				t.Fatal(err)
			}
			if got := tok.Encode(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("Encode(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

// TestByteLevelOnly checks a pre-tokenizer that is ByteLevel alone: HF
// then merges each segment as one piece. "hello world" still ends as hello,
// Ġworld because no merge joins those two.
func TestByteLevelOnly(t *testing.T) {
	data := tinyJSON(t)
	start := bytes.Index(data, []byte(`"pre_tokenizer"`))
	end := bytes.Index(data, []byte(`"post_processor"`))
	onlyByteLevel := `"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "trim_offsets": true, "use_regex": false},` + "\n "
	tok, err := LoadBytes(append(append(append([]byte(nil), data[:start]...), onlyByteLevel...), data[end:]...))
	if err != nil {
		t.Fatal(err)
	}
	// As one piece, "12345" can merge 3+4 across the digit-chunk boundary
	// the Split regex would have drawn.
	tests := []struct {
		text string
		want []uint32
	}{
		{"12345", []uint32{'1', '2', 265, '5'}},
		{"hello world", []uint32{259, 264}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := tok.Encode(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Encode(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
