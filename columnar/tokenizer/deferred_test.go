package tokenizer

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestResolveCachedDeferred: a compiled-cache hit through ResolveCached
// reads only the entry's identity — the same as a full load's — and builds
// its tables on first use, encoding then exactly as the JSON does.
func TestResolveCachedDeferred(t *testing.T) {
	path, cache := copyTiny(t, ""), t.TempDir()
	want := loadTiny(t)
	first, res, err := ResolveCached(path, "", cache)
	if err != nil || res.Compiled != CompiledWritten {
		t.Fatalf("first resolve: %q, %v; want %q", res.Compiled, err, CompiledWritten)
	}
	if tok := first.(*Tokenizer); !tok.Loaded() {
		t.Errorf("a tokenizer parsed from its JSON is not loaded")
	}
	c, res, err := ResolveCached(path, "", cache)
	if err != nil || res.Compiled != CompiledHit {
		t.Fatalf("second resolve: %q, %v; want %q", res.Compiled, err, CompiledHit)
	}
	tok := c.(*Tokenizer)
	if tok.Loaded() {
		t.Errorf("a hit built its tables before any use")
	}
	if got := tok.Identity(); got != want.Identity() {
		t.Errorf("identity of the hit = %q, want %q (Load)", got, want.Identity())
	}
	for _, s := range tinyTexts {
		if got, w := tok.Encode(s), want.Encode(s); !slices.Equal(got, w) {
			t.Errorf("Encode(%q) = %v, want %v (Load)", s, got, w)
		}
		if got, w := tok.Count(s), want.Count(s); got != w {
			t.Errorf("Count(%q) = %d, want %d (Load)", s, got, w)
		}
	}
	if !tok.Loaded() {
		t.Errorf("not loaded after use")
	}
}

// TestResolveCachedDeferredDamage: an entry damaged in any way is still
// counted exactly as the JSON says — rebuilt at once when its header (the
// identity) is damaged, on first use otherwise — and the entry left is a
// hit for the next load.
func TestResolveCachedDeferredDamage(t *testing.T) {
	path := copyTiny(t, "")
	want := loadTiny(t)
	for name, f := range entryDamage {
		t.Run(name, func(t *testing.T) {
			cache := damagedCache(t, path, f)
			c, res, err := ResolveCached(path, "", cache)
			if err != nil {
				t.Fatal(err)
			}
			tok := c.(*Tokenizer)
			if tok.Identity() != want.Identity() {
				t.Errorf("identity = %q, want %q (Load)", tok.Identity(), want.Identity())
			}
			if err := tok.Load(); err != nil {
				t.Fatalf("Load: %v", err)
			}
			if res.Compiled != CompiledHit && !strings.HasPrefix(res.Compiled, "rebuilt: ") {
				t.Errorf("outcome = %q, want a hit (header intact) or a rebuild", res.Compiled)
			}
			encodesAsThenHits(t, tok, want, path, cache, "after the deferred load")
		})
	}
}

// TestResolveCachedDeferredGone: a deferred tokenizer whose file is gone
// by its first use says so from CountContext (Count: −1), never counting
// with tables it could not check.
func TestResolveCachedDeferredGone(t *testing.T) {
	path, cache := copyTiny(t, ""), t.TempDir()
	if _, _, err := ResolveCached(path, "", cache); err != nil {
		t.Fatal(err)
	}
	c, _, err := ResolveCached(path, "", cache)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	tok := c.(*Tokenizer)
	if _, err := tok.CountContext(t.Context(), "hello world"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("CountContext after the file went: %v, want a not-exist error", err)
	}
	if n := tok.Count("hello world"); n != -1 {
		t.Errorf("Count after the file went = %d, want -1", n)
	}
}

// TestCompiledIdentityPrefixes: the identity read from any prefix of an
// entry is the entry's, or errCompiled — never a wrong one.
func TestCompiledIdentityPrefixes(t *testing.T) {
	p, err := parseParts(tinyJSON(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	data := p.appendCompiled(nil)
	for n := 0; n <= len(data) && n <= entryHeaderSize; n++ {
		id, err := compiledIdentity(data[:n])
		if err == nil && id != p.identity {
			t.Fatalf("prefix of %d bytes: identity %q, want %q", n, id, p.identity)
		}
		if err != nil && !errors.Is(err, errCompiled) {
			t.Fatalf("prefix of %d bytes: error %v, want errCompiled", n, err)
		}
	}
	if id, err := compiledIdentity(data[:entryHeaderSize]); err != nil || id != p.identity {
		t.Errorf("identity from the header = %q, %v; want %q", id, err, p.identity)
	}
}
