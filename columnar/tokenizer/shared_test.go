package tokenizer

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// sharedTokenizerNames are the tokenizers under shared/tokenizers; their
// vectors hold ids computed by HF tokenizers 0.22.2 (Rust) with
// add_special_tokens=false (shared/tokenizers/README.md).
var sharedTokenizerNames = []string{"deepseek_v3", "deepseek_r1_derived", "gptoss", "qwen3", "llama3_1"}

// sharedDir returns shared/tokenizers, found beside the repository root
// (the directory holding go.mod), or skips the test.
func sharedDir(tb testing.TB) string {
	tb.Helper()
	return filepath.Join(sharedtest.Dir(tb, "tokenizers"), "tokenizers")
}

// sharedVectors is tokenizer name's vectors (dir/vectors/NAME.jsonl.gz):
// the texts with the ids and counts HF tokenizers 0.22.2 produced.
func sharedVectors(tb testing.TB, dir, name string) []idVector {
	tb.Helper()
	return readJSONLines[idVector](tb, filepath.Join(dir, "vectors", name+".jsonl.gz"))
}

// readJSONLines decodes every line of a gzip-compressed JSON-lines file.
func readJSONLines[T any](tb testing.TB, path string) []T {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("gunzip %s: %v", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	var out []T
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			tb.Fatalf("%s line %d: %v", path, len(out)+1, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return out
}

type idVector struct {
	Text  string   `json:"text"`
	IDs   []uint32 `json:"ids"`
	Count int      `json:"count"`
}

type pretokVector struct {
	Pieces []string `json:"pieces"`
}

// loadedShared caches tokenizers across tests; loading the large ones
// takes about a second each.
var loadedShared sync.Map // name → *Tokenizer

func loadShared(tb testing.TB, name string) *Tokenizer {
	tb.Helper()
	if tok, ok := loadedShared.Load(name); ok {
		return tok.(*Tokenizer)
	}
	tok, err := Load(filepath.Join(sharedDir(tb), name, "tokenizer.json.gz"))
	if err != nil {
		tb.Fatal(err)
	}
	loadedShared.Store(name, tok)
	return tok
}
