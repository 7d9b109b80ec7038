package tokenizer

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// noRacyWindow lets the tests record the sum of files they have just
// written (racyWindow: their ctime is now).
func noRacyWindow(t *testing.T) {
	old := racyWindow
	racyWindow = 0
	t.Cleanup(func() { racyWindow = old })
}

// sumRecordOf is the record of the tokenizer file at path under cache.
func sumRecordOf(t *testing.T, cache, path string) string {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	o := &openedFile{id: contract.FileIdentity(st)}
	return o.recordPath(filepath.Join(cache, compiledDir))
}

// loadCounting is LoadCached, returning how many files it hashed.
func loadCounting(t *testing.T, path, cache string) (*Tokenizer, string, int64) {
	t.Helper()
	before := sumHashes.Load()
	tok, outcome, err := LoadCached(path, cache)
	if err != nil {
		t.Fatal(err)
	}
	return tok, outcome, sumHashes.Load() - before
}

// identityOf is the identity a tokenizer parsed from the file at path
// has: "sha256:" and the hash of its bytes, hashed here independently.
func identityOf(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// TestSumRecordSkipsHash: the first load hashes the file and records its
// sum; the next reads the record and the compiled entry and hashes
// nothing, encoding as the JSON does.
func TestSumRecordSkipsHash(t *testing.T) {
	noRacyWindow(t)
	path, cache := copyTiny(t, ""), t.TempDir()
	if _, outcome, hashed := loadCounting(t, path, cache); outcome != CompiledWritten || hashed != 1 {
		t.Fatalf("first load: %q, %d files hashed; want %q, 1", outcome, hashed, CompiledWritten)
	}
	if _, err := os.Stat(sumRecordOf(t, cache, path)); err != nil {
		t.Fatalf("no sum record after the first load: %v", err)
	}
	tok, outcome, hashed := loadCounting(t, path, cache)
	if outcome != CompiledHit || hashed != 0 {
		t.Fatalf("second load: %q, %d files hashed; want %q, 0", outcome, hashed, CompiledHit)
	}
	want := loadTiny(t)
	for _, s := range tinyTexts {
		if got, w := tok.Encode(s), want.Encode(s); !slices.Equal(got, w) {
			t.Errorf("Encode(%q) = %v, want %v (Load)", s, got, w)
		}
	}
}

// TestSumRecordEditedInPlace: tokenizer.json rewritten in place with
// bytes of the same size and its mtime set back (os.Chtimes) keeps size
// and mtime, but not its ctime: the load hashes it again and uses the
// new bytes — identity their hash, <|end|> no longer a token.
func TestSumRecordEditedInPlace(t *testing.T) {
	noRacyWindow(t)
	path, cache := copyTiny(t, ""), t.TempDir()
	if tok, _, _ := loadCounting(t, path, cache); !slices.Contains(tok.Encode("hello<|end|>world"), 266) {
		t.Fatalf("the fixture's <|end|> is not 266: %v", tok.Encode("hello<|end|>world"))
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := tinyWith(t, `"<|end|>"`, `"<|eNd|>"`)
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	// Set the mtime back until the ctime has moved off the original's
	// (the filesystem's clock ticks every few milliseconds).
	oldID := contract.FileIdentity(before)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := os.Chtimes(path, before.ModTime(), before.ModTime()); err != nil {
			t.Fatal(err)
		}
		after, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		id := contract.FileIdentity(after)
		if id[2] != oldID[2] || id[3] != oldID[3] || id[0] != oldID[0] || id[1] != oldID[1] {
			t.Fatalf("identity after the edit %v, want device, inode, size and mtime of %v", id, oldID)
		}
		if id[4] != oldID[4] {
			break
		}
		if time.Now().After(deadline) {
			t.Skip("the filesystem's ctime did not change in 30 s")
		}
		time.Sleep(time.Millisecond)
	}
	tok, outcome, hashed := loadCounting(t, path, cache)
	if hashed != 1 || outcome != CompiledWritten {
		t.Errorf("load after the edit: %q, %d files hashed; want %q, 1", outcome, hashed, CompiledWritten)
	}
	if got, want := tok.Identity(), identityOf(t, path); got != want {
		t.Errorf("identity after the edit %s, want %s (the edited bytes)", got, want)
	}
	if got := tok.Encode("hello<|end|>world"); slices.Contains(got, 266) {
		t.Errorf("after the edit hello<|end|>world = %v, want no 266", got)
	}
	if _, outcome, hashed := loadCounting(t, path, cache); outcome != CompiledHit || hashed != 0 {
		t.Errorf("load after that: %q, %d files hashed; want %q, 0", outcome, hashed, CompiledHit)
	}
}

// TestSumRecordDamaged: a record with a flipped bit (CRC), cut short, or
// naming another identity is ignored — the file is hashed and the entry
// still hit — and rewritten intact. One whose CRC holds but whose sum is
// wrong sends the load to the JSON, which is stored under its true hash.
func TestSumRecordDamaged(t *testing.T) {
	noRacyWindow(t)
	damage := map[string]func([]byte) []byte{
		"FlipInSum": func(b []byte) []byte { b[len(sumRecordMagic)+40] ^= 1; return b },
		"FlipInID":  func(b []byte) []byte { b[len(sumRecordMagic)] ^= 1; return b },
		"Truncated": func(b []byte) []byte { return b[:len(b)-1] },
		"Empty":     func([]byte) []byte { return nil },
		"OtherIdentity": func(b []byte) []byte {
			return appendSumRecord(nil, [5]int64{1, 2, 3, 4, 5}, [32]byte(b[len(sumRecordMagic)+40:]))
		},
	}
	for name, f := range damage {
		t.Run(name, func(t *testing.T) {
			path, cache, record, data := damageRecord(t, f)
			tok, outcome, hashed := loadCounting(t, path, cache)
			if outcome != CompiledHit || hashed != 1 {
				t.Errorf("load with the damaged record: %q, %d files hashed; want %q, 1", outcome, hashed, CompiledHit)
			}
			if got, want := tok.Identity(), identityOf(t, path); got != want {
				t.Errorf("identity %s, want %s", got, want)
			}
			if got, err := os.ReadFile(record); err != nil || !bytes.Equal(got, data) {
				t.Errorf("record after the load: %x (%v), want it rewritten as %x", got, err, data)
			}
		})
	}
	t.Run("WrongSumValidCRC", func(t *testing.T) {
		path, cache, record, data := damageRecord(t, func(b []byte) []byte {
			return appendSumRecord(nil, readIdentity(b), sha256.Sum256([]byte("other")))
		})
		tok, _, hashed := loadCounting(t, path, cache)
		if hashed != 0 {
			t.Errorf("%d files hashed, want the record believed (0)", hashed)
		}
		if got, want := tok.Identity(), identityOf(t, path); got != want {
			t.Errorf("identity %s, want %s (the file's bytes)", got, want)
		}
		if got, err := os.ReadFile(record); err != nil || !bytes.Equal(got, data) {
			t.Errorf("record after the load: %x (%v), want it corrected to %x", got, err, data)
		}
		if _, outcome, hashed := loadCounting(t, path, cache); outcome != CompiledHit || hashed != 0 {
			t.Errorf("next load: %q, %d files hashed; want %q, 0", outcome, hashed, CompiledHit)
		}
	})
}

// TestSumRecordRacy: a file changed less than racyWindow before it was
// hashed (here: just written) gets no record, so every load hashes it.
func TestSumRecordRacy(t *testing.T) {
	path, cache := copyTiny(t, ""), t.TempDir()
	for i, want := range []string{CompiledWritten, CompiledHit} {
		if _, outcome, hashed := loadCounting(t, path, cache); outcome != want || hashed != 1 {
			t.Errorf("load %d: %q, %d files hashed; want %q, 1", i+1, outcome, hashed, want)
		}
	}
	if _, err := os.Stat(sumRecordOf(t, cache, path)); !os.IsNotExist(err) {
		t.Errorf("record of a file written just now: %v, want none", err)
	}
}

// stableFile reports whether the file at path last changed racyWindow or
// more ago, so a load records its sum.
func stableFile(t *testing.T, path string) bool {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	id, limit := contract.FileIdentity(st), time.Now().Add(-racyWindow).UnixNano()
	return id[1] != 0 && id[3] <= limit && id[4] <= limit
}

// damageRecord loads a copy of the tiny fixture through a new cache,
// replaces the record of its sum by f of its bytes, and returns the
// paths and the intact record.
func damageRecord(t *testing.T, f func([]byte) []byte) (path, cache, record string, intact []byte) {
	t.Helper()
	path, cache = copyTiny(t, ""), t.TempDir()
	loadCounting(t, path, cache)
	record = sumRecordOf(t, cache, path)
	intact, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(record, f(slices.Clone(intact)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, cache, record, intact
}

// readIdentity is the identity a record's bytes hold.
func readIdentity(b []byte) (id [5]int64) {
	for i := range id {
		id[i] = int64(binary.LittleEndian.Uint64(b[len(sumRecordMagic)+8*i:]))
	}
	return id
}
