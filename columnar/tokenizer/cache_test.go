package tokenizer

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

// entryOf is the one compiled entry under cacheDir.
func entryOf(t *testing.T, cacheDir string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(cacheDir, compiledDir, "*.tok"))
	if err != nil || len(m) != 1 {
		t.Fatalf("compiled entries under %s: %v (%v), want one", cacheDir, m, err)
	}
	return m[0]
}

// TestCompiledCacheSharedVectors loads every shared tokenizer twice
// through a new cache — parsed and stored, then read back — and encodes
// its 3000 texts from the second load, comparing with the ids HF
// tokenizers 0.22.2 produced (shared/tokenizers/vectors/NAME.jsonl.gz).
func TestCompiledCacheSharedVectors(t *testing.T) {
	dir := sharedDir(t)
	for _, name := range sharedTokenizerNames {
		t.Run(name, func(t *testing.T) {
			cache := t.TempDir()
			path := filepath.Join(dir, name, "tokenizer.json.gz")
			first, outcome, err := LoadCached(path, cache)
			if err != nil || outcome != CompiledWritten {
				t.Fatalf("first LoadCached: outcome %q, error %v; want %q", outcome, err, CompiledWritten)
			}
			hashes := sumHashes.Load()
			tok, outcome, err := LoadCached(path, cache)
			if err != nil || outcome != CompiledHit {
				t.Fatalf("second LoadCached: outcome %q, error %v; want %q", outcome, err, CompiledHit)
			}
			// The shared files are old: their sums are recorded (filesum.go).
			if n := sumHashes.Load() - hashes; n != 0 && stableFile(t, path) {
				t.Errorf("second LoadCached hashed %d files, want the recorded sum", n)
			}
			if tok.Identity() != first.Identity() || tok.Identity() != loadShared(t, name).Identity() {
				t.Errorf("identity %s from the cache, %s parsed, %s by Load", tok.Identity(), first.Identity(), loadShared(t, name).Identity())
			}
			vectors := sharedVectors(t, dir, name)
			if len(vectors) != 3000 {
				t.Fatalf("got %d vectors, want 3000", len(vectors))
			}
			mismatches := 0
			for i, v := range vectors {
				if got := tok.Encode(v.Text); !slices.Equal(got, v.IDs) {
					if mismatches++; mismatches <= 3 {
						t.Errorf("text %d %q from the compiled cache:\ngot  %v\nwant %v", i+1, truncate(v.Text, 120), got[:min(len(got), 40)], v.IDs[:min(len(v.IDs), 40)])
					}
				}
			}
		})
	}
}

// copyTiny puts the tiny fixture (and, when cfg is not empty, a
// tokenizer_config.json) in a new directory and returns the tokenizer's
// path.
func copyTiny(t *testing.T, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "tokenizer.json")
	if err := os.WriteFile(path, tinyJSON(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg != "" {
		if err := os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// tinyTexts exercise every part of the tiny fixture (TestEncodeTiny):
// merges, both kinds of added token, the Split regex, raw bytes.
var tinyTexts = []string{"hello world", "hello<|end|>world", "a  world", "12345 345", "<think>", "<|end|>\u0338", "\xff\xfe", "<|tool|>x"}

// entryDamage are the ways a disk or a crash can damage a compiled entry.
var entryDamage = map[string]func([]byte) []byte{
	"FlipInHeader": func(b []byte) []byte { b[3] ^= 1; return b },
	"FlipInMiddle": func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b },
	"FlipInCRC":    func(b []byte) []byte { b[len(b)-1] ^= 0x80; return b },
	"Truncated":    func(b []byte) []byte { return b[:len(b)*2/3] },
	"Empty":        func([]byte) []byte { return nil },
	"OtherVersion": func(b []byte) []byte {
		return []byte(strings.Replace(string(b), compiledMagic, "steadysweep compiled tokenizer 9\n", 1))
	},
	"TrailingBytes": func(b []byte) []byte { return append(b, 0) },
	// the identity, which a deferred load reads alone (its header CRC)
	"FlipInIdentity": func(b []byte) []byte { b[len(compiledMagic)+4+4+10] ^= 1; return b },
}

// damagedCache is a new cache directory holding the compiled entry of
// the tokenizer file at path, damaged by f.
func damagedCache(t *testing.T, path string, f func([]byte) []byte) string {
	t.Helper()
	cache := t.TempDir()
	if _, outcome, err := LoadCached(path, cache); err != nil || outcome != CompiledWritten {
		t.Fatalf("first load: %q, %v", outcome, err)
	}
	entry := entryOf(t, cache)
	data, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, f(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return cache
}

// TestCompiledCacheCorrupt damages the stored entry of the tiny fixture
// in each way a disk or a crash can — a flipped bit in each region, a
// truncation, an empty file, another layout's header — and checks that
// the next load notices, says so, encodes exactly as the JSON does, and
// leaves an entry that the load after it reads as a hit.
func TestCompiledCacheCorrupt(t *testing.T) {
	path := copyTiny(t, "")
	want := loadTiny(t)
	for name, f := range entryDamage {
		t.Run(name, func(t *testing.T) {
			cache := damagedCache(t, path, f)
			tok, outcome, err := LoadCached(path, cache)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(outcome, "rebuilt: ") {
				t.Errorf("outcome after damage = %q, want a rebuild", outcome)
			}
			encodesAsThenHits(t, tok, want, path, cache, "after the rebuild")
		})
	}
}

// encodesAsThenHits checks that tok encodes tinyTexts exactly as want (the
// tokenizer parsed from JSON) and that the next LoadCached of path reads
// the entry left in cache as a hit.
func encodesAsThenHits(t *testing.T, tok, want *Tokenizer, path, cache, when string) {
	t.Helper()
	for _, s := range tinyTexts {
		if got, w := tok.Encode(s), want.Encode(s); !slices.Equal(got, w) {
			t.Errorf("Encode(%q) %s = %v, want %v (Load)", s, when, got, w)
		}
	}
	if _, outcome, err := LoadCached(path, cache); err != nil || outcome != CompiledHit {
		t.Errorf("load %s: %q, %v; want a hit", when, outcome, err)
	}
}

// TestDecodeCompiledDamage decodes every prefix of the tiny fixture's
// compiled form and the form with each single byte changed: each is
// refused with errCompiled (the CRC or a bounds check), never a panic or
// a tokenizer.
func TestDecodeCompiledDamage(t *testing.T) {
	p, err := parseParts(tinyJSON(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	data := p.appendCompiled(nil)
	if _, err := decodeCompiled(data); err != nil {
		t.Fatalf("the intact form: %v", err)
	}
	for n := range len(data) {
		if _, err := decodeCompiled(data[:n]); !errors.Is(err, errCompiled) {
			t.Fatalf("prefix of %d of %d bytes: error %v, want errCompiled", n, len(data), err)
		}
	}
	for i := range data {
		b := slices.Clone(data)
		b[i] ^= 0x5a
		if _, err := decodeCompiled(b); !errors.Is(err, errCompiled) {
			t.Fatalf("byte %d changed: error %v, want errCompiled", i, err)
		}
	}
}

// TestCompiledCacheKey: the entry is keyed by the tokenizer file and its
// tokenizer_config.json, so a config that adds a token gets its own entry
// and its own ids (the config's <|tool|> is 268 only with the config),
// while a copy of the same files elsewhere hits the first's entry.
func TestCompiledCacheKey(t *testing.T) {
	cache := t.TempDir()
	plain := copyTiny(t, "")
	cfg := `{"added_tokens_decoder": {"268": {"content": "<|tool|>", "special": true, "normalized": false}}}`
	withCfg := copyTiny(t, cfg)
	a, outcome, err := LoadCached(plain, cache)
	if err != nil || outcome != CompiledWritten {
		t.Fatalf("plain: %q, %v", outcome, err)
	}
	b, outcome, err := LoadCached(withCfg, cache)
	if err != nil || outcome != CompiledWritten {
		t.Fatalf("with config: %q, %v; want its own entry", outcome, err)
	}
	if got := a.Encode("<|tool|>"); slices.Contains(got, 268) {
		t.Errorf("without the config <|tool|> = %v, want no 268", got)
	}
	if got := b.Encode("<|tool|>"); !slices.Equal(got, []uint32{268}) {
		t.Errorf("with the config <|tool|> = %v, want [268]", got)
	}
	if _, outcome, err := LoadCached(copyTiny(t, cfg), cache); err != nil || outcome != CompiledHit {
		t.Errorf("a copy of the files with the config: %q, %v; want a hit", outcome, err)
	}
}

// TestCompiledCacheUnwritable: a cache directory that cannot be created
// still gives the tokenizer, with the reason it was not stored.
func TestCompiledCacheUnwritable(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tok, outcome, err := LoadCached(copyTiny(t, ""), blocker)
	if err != nil || tok == nil {
		t.Fatalf("LoadCached with an unwritable cache: %v", err)
	}
	if !strings.HasPrefix(outcome, "not stored: ") {
		t.Errorf("outcome = %q, want not stored", outcome)
	}
	if got := tok.Encode("hello world"); !slices.Equal(got, []uint32{259, 264}) {
		t.Errorf("Encode = %v, want [259 264]", got)
	}
}

// TestDecodeCompiledForgedTables: an entry whose checksum holds but whose
// stored hash tables could not be used in place — a merge table without a
// free entry (a missed lookup would probe forever), a vocabulary slot
// pointing past the keys (a lookup would slice out of range) — is refused
// with errCompiled, as a damaged one is.
func TestDecodeCompiledForgedTables(t *testing.T) {
	fresh := func() *parts {
		p, err := parseParts(tinyJSON(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := fresh()
	for i := range p.model.merges.entries {
		if e := &p.model.merges.entries[i]; e.nkey == 0 {
			e.nkey, e.value = ^uint64(i+1)<<20, 0
		}
	}
	if _, err := decodeCompiled(p.appendCompiled(nil)); !errors.Is(err, errCompiled) {
		t.Errorf("merge table without a free entry: %v, want errCompiled", err)
	}

	p = fresh()
	p.model.ignoreMerges = true
	p.model.vocab = newVocabTable("abc", []uint32{1, 2}, []uint32{7, 8})
	q, err := decodeCompiled(p.appendCompiled(nil))
	if err != nil {
		t.Fatalf("a vocabulary table: %v", err)
	}
	if id, ok := q.model.vocab.get("bc"); !ok || id != 8 {
		t.Errorf(`stored vocabulary: get("bc") = %d, %v; want 8`, id, ok)
	}
	for i := range p.model.vocab.slots {
		if e := &p.model.vocab.slots[i]; e.id1 != 0 {
			e.off = 3
		}
	}
	if _, err := decodeCompiled(p.appendCompiled(nil)); !errors.Is(err, errCompiled) {
		t.Errorf("vocabulary slot past the keys: %v, want errCompiled", err)
	}
}

// TestCompiledCacheMappedEntry: a hit's tables lie in the entry file
// mapped (entryread.go); replacing the entry by rename, as every writer
// does, leaves the loaded tokenizer's bytes as they were, and a second
// hit of the same file shares the first's mapping.
func TestCompiledCacheMappedEntry(t *testing.T) {
	path, cache := copyTiny(t, ""), t.TempDir()
	var loads [3]*Tokenizer
	for i, want := range []string{CompiledWritten, CompiledHit, CompiledHit} {
		tok, outcome, err := LoadCached(path, cache)
		if err != nil || outcome != want {
			t.Fatalf("load %d: %q, %v; want %q", i+1, outcome, err, want)
		}
		loads[i] = tok
	}
	tok, again := loads[1], loads[2]
	if runtime.GOOS == "linux" && tok.model.merges != nil && &tok.model.merges.entries[0] != &again.model.merges.entries[0] {
		t.Errorf("two hits of one entry file hold two copies of its merge table")
	}
	entry := entryOf(t, cache)
	if err := atomicfile.WriteFile(entry, []byte(compiledMagic+"garbage")); err != nil {
		t.Fatal(err)
	}
	want := loadTiny(t)
	for _, s := range tinyTexts {
		if got, w := tok.Encode(s), want.Encode(s); !slices.Equal(got, w) {
			t.Errorf("Encode(%q) after the entry was replaced = %v, want %v (Load)", s, got, w)
		}
	}
}
