package tokenizer

import (
	"path/filepath"
	"slices"
	"sync"
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
			vectors := sharedVectors(t, dir, name)
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

// TestSharedPreTokenizer runs only the Split regexes on each raw text and
// compares with the pieces HF's pre_tokenizer produced
// (shared/tokenizers/vectors/pretok/NAME.jsonl.gz).
func TestSharedPreTokenizer(t *testing.T) {
	dir := sharedDir(t)
	// deepseek_r1_derived shares deepseek_v3's pre-tokenizer and has no
	// pretok file of its own.
	for _, name := range []string{"deepseek_v3", "gptoss", "qwen3", "llama3_1"} {
		t.Run(name, func(t *testing.T) {
			tok := loadShared(t, name)
			texts := sharedVectors(t, dir, name)
			want := readJSONLines[pretokVector](t, filepath.Join(dir, "vectors", "pretok", name+".jsonl.gz"))
			if len(texts) != len(want) {
				t.Fatalf("%d texts but %d pretok lines", len(texts), len(want))
			}
			var m matcher
			mismatches := 0
			for i, v := range texts {
				got := m.preTokenize(tok.splits, v.Text, nil)
				if len(got) == 0 {
					got = []string{}
				}
				if !slices.Equal(got, want[i].Pieces) {
					mismatches++
					if mismatches <= 5 {
						t.Errorf("text %d %q:\ngot  %q\nwant %q", i+1, truncate(v.Text, 80), got[:min(len(got), 20)], want[i].Pieces[:min(len(want[i].Pieces), 20)])
					}
				}
			}
			t.Logf("%s: %d/%d pre-tokenizations match HF", name, len(texts)-mismatches, len(texts))
		})
	}
}

// TestMergeStrategiesAgree checks that the quadratic merge used for short
// pieces and HF's heap-based merge used for long ones give the same ids on
// every piece of the shared texts, for the tokenizers without
// ignore_merges (where every piece is merged).
func TestMergeStrategiesAgree(t *testing.T) {
	dir := sharedDir(t)
	for _, name := range []string{"deepseek_v3", "qwen3"} {
		t.Run(name, func(t *testing.T) {
			tok := loadShared(t, name)
			vectors := sharedVectors(t, dir, name)
			var m matcher
			var sc bpeScratch
			pieces := 0
			for _, v := range vectors {
				for _, piece := range m.preTokenize(tok.splits, v.Text, nil) {
					if len(piece) < 2 {
						continue
					}
					naive := tok.model.mergeNaive(nil, piece, &sc)
					heap := tok.model.mergeHeap(nil, piece, &sc)
					if !slices.Equal(naive, heap) {
						t.Fatalf("piece %q: naive %v, heap %v", piece, naive, heap)
					}
					pieces++
				}
			}
			t.Logf("%d pieces agree", pieces)
		})
	}
}

// TestReadmeCounts checks the table "Some counts" of
// shared/tokenizers/README.md (HF tokenizers, add_special_tokens=false),
// columns deepseek_v3, deepseek_r1_derived, gptoss, qwen3, llama3_1.
func TestReadmeCounts(t *testing.T) {
	tests := []struct {
		text string
		want [5]int
	}{
		{"Hello world", [5]int{2, 2, 2, 2, 2}},
		{"<think>", [5]int{3, 1, 3, 1, 3}},
		{"<think>\nOkay.\n</think>\n\nAnswer: 42", [5]int{12, 10, 12, 11, 12}},
		{"<|end|>", [5]int{5, 5, 1, 5, 5}},
		{"<|im_end|>", [5]int{6, 6, 6, 1, 6}},
		{"<｜end▁of▁sentence｜>", [5]int{1, 1, 11, 11, 11}},
		{"<|eot_id|>", [5]int{7, 7, 7, 7, 1}},
		{"<|reserved_special_token_250|>", [5]int{11, 11, 9, 11, 1}},
		{"\r\n\r\n", [5]int{4, 4, 1, 1, 1}},
		{"1234567890", [5]int{4, 4, 4, 10, 4}},
		{"こんにちは世界", [5]int{6, 6, 2, 2, 2}},
		{"👨\u200d👩\u200d👧\u200d👦", [5]int{11, 11, 11, 10, 15}},
		{"it's", [5]int{2, 2, 1, 2, 2}},
		{"e\u0301", [5]int{2, 2, 2, 1, 2}},
		{"</think>\u0338", [5]int{5, 3, 5, 3, 5}},
	}
	for i, name := range sharedTokenizerNames {
		tok := loadShared(t, name)
		for _, tt := range tests {
			if got := tok.Count(tt.text); got != tt.want[i] {
				t.Errorf("%s: Count(%+q) = %d, want %d", name, tt.text, got, tt.want[i])
			}
		}
	}
	// The package doc's example.
	if got := loadShared(t, "llama3_1").Encode("Hello world<|eot_id|>"); !slices.Equal(got, []uint32{9906, 1917, 128009}) {
		t.Errorf("llama3_1 Encode(Hello world<|eot_id|>) = %v, want [9906 1917 128009]", got)
	}
}

// TestSharedConcurrent encodes every shared llama3_1 text from four
// goroutines at once, each in its own order, so that they race on the
// scratch pool and the BPE cache; every result must still equal HF's ids.
func TestSharedConcurrent(t *testing.T) {
	dir := sharedDir(t)
	tok, err := Load(filepath.Join(dir, "llama3_1", "tokenizer.json.gz")) // a fresh, cold cache
	if err != nil {
		t.Fatal(err)
	}
	vectors := sharedVectors(t, dir, "llama3_1")
	var wg sync.WaitGroup
	// Multipliers coprime to 3000 make each order a permutation.
	for g, step := range []int{1, 7, 11, 13} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ids []uint32
			for i := range vectors {
				v := vectors[(i*step+g*997)%len(vectors)]
				ids = tok.AppendEncode(ids[:0], v.Text)
				if !slices.Equal(ids, v.IDs) {
					t.Errorf("goroutine %d: text %q differs from HF", g, truncate(v.Text, 60))
					return
				}
			}
		}()
	}
	wg.Wait()
}
