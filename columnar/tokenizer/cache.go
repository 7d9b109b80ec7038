package tokenizer

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/steadysweep/steadysweep/internal/atomicfile"
	"github.com/steadysweep/steadysweep/internal/sha256"
)

// compiledDir is the subdirectory of the cache directory that holds
// compiled tokenizers.
const compiledDir = "tokenizers"

// Outcomes of LoadCached (Resolution.Compiled).
const (
	CompiledHit     = "hit"     // read from the compiled cache
	CompiledWritten = "written" // parsed from JSON and stored
)

// LoadCached is Load through the compiled cache under cacheDir: the first
// load of a tokenizer file parses its JSON and stores the compiled form
// (compiled.go) as cacheDir/tokenizers/KEY.tok; later loads read that in
// one read and parse no JSON. KEY is the hex SHA-256 of the tokenizer
// file's bytes as stored (gzip-compressed or not, so a hit need not
// gunzip), a dash, and the first 16 hex digits of the SHA-256 of the
// tokenizer_config.json beside it ("none" without one): a changed file
// or config is a new entry, never a stale one. The hash itself is
// remembered against the file's identity (filesum.go), so a hit reads
// neither the JSON nor, while the file is unchanged, its bytes.
//
// outcome is CompiledHit, CompiledWritten, or a one-line reason the entry
// was rebuilt or could not be stored ("rebuilt: …", "not stored: …");
// a cache that cannot be written costs only the speed of the next load.
func LoadCached(path, cacheDir string) (t *Tokenizer, outcome string, err error) {
	file, err := openTokenizerFile(path)
	if err != nil {
		return nil, "", err
	}
	defer file.Close()
	dir := filepath.Join(cacheDir, compiledDir)
	sum, cfgRaw, entry, err := locateEntry(file, dir)
	if err != nil {
		return nil, "", err
	}
	cfg, err := parseConfig(cfgRaw, path)
	if err != nil {
		return nil, "", err
	}
	var rebuilt string
	switch data, err := readEntry(entry); {
	case err == nil:
		p, err := decodeCompiled(data)
		if err == nil {
			if t, err := p.assemble(); err == nil {
				return t, CompiledHit, nil
			}
		}
		rebuilt = fmt.Sprintf("rebuilt: %s: %v", entry, err)
	case !errors.Is(err, fs.ErrNotExist):
		rebuilt = fmt.Sprintf("rebuilt: %v", err)
	}
	start := time.Now()
	raw, err := file.read()
	if err != nil {
		return nil, "", err
	}
	// The entry is stored under the hash of the bytes parsed, whatever a
	// record said (one CRC-valid but wrong is corrected).
	if fresh := sha256.Sum256(raw); fresh != sum {
		entry = filepath.Join(dir, compiledKey(fresh, cfgRaw)+".tok")
		file.record(dir, fresh, start)
	}
	data, err := gunzipIfCompressed(raw, path)
	if err != nil {
		return nil, "", fmt.Errorf("tokenizer: %w", err)
	}
	p, err := parseParts(data, cfg)
	if err == nil {
		t, err = p.assemble()
	}
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	outcome = CompiledWritten
	if rebuilt != "" {
		outcome = rebuilt
	}
	if err := os.MkdirAll(filepath.Dir(entry), 0o755); err != nil {
		return t, "not stored: " + err.Error(), nil
	}
	if err := atomicfile.WriteFile(entry, p.appendCompiled(nil)); err != nil {
		return t, "not stored: " + err.Error(), nil
	}
	return t, outcome, nil
}

// locateEntry returns what names the compiled entry of the opened
// tokenizer file under dir: the file's hash, the bytes of its
// tokenizer_config.json (nil without one; a hit never parses them — the
// entry was built from a parse of those very bytes) and the entry's path.
func locateEntry(file *openedFile, dir string) (sum [sha256.Size]byte, cfgRaw []byte, entry string, err error) {
	if sum, err = file.sum(dir); err != nil {
		return sum, nil, "", err
	}
	if cfgRaw, err = readConfigRaw(file.path); err != nil {
		return sum, nil, "", err
	}
	return sum, cfgRaw, filepath.Join(dir, compiledKey(sum, cfgRaw)+".tok"), nil
}

// loadCachedDeferred is LoadCached for a caller that may never count
// (Resolve's: a run whose columns come from the column cache needs only
// the tokenizer's identity, for the key): on a hit it reads the entry's
// header alone (compiledIdentity) and returns a Tokenizer whose tables
// are built on first use or by Load — through LoadCached, so a body
// damaged since is rebuilt then. gpt-oss's hit otherwise maps its 24.5 MB
// entry, checks its CRC, compiles the Split patterns and builds their
// Unicode tables: a third of a warm analyze's CPU, for nothing. Without
// an entry with an intact header it is LoadCached.
func loadCachedDeferred(path, cacheDir string) (*Tokenizer, string, error) {
	file, err := openTokenizerFile(path)
	if err != nil {
		return nil, "", err
	}
	_, _, entry, err := locateEntry(file, filepath.Join(cacheDir, compiledDir))
	file.Close()
	if err != nil {
		return nil, "", err
	}
	identity, err := readEntryIdentity(entry)
	if err != nil {
		return LoadCached(path, cacheDir)
	}
	return &Tokenizer{identity: identity, deferred: &deferredTables{path: path, cacheDir: cacheDir}}, CompiledHit, nil
}

// compiledKey names the entry of a tokenizer file (by its hash) and its
// config.
func compiledKey(sum [sha256.Size]byte, cfgRaw []byte) string {
	cfg := "none"
	if cfgRaw != nil {
		c := sha256.Sum256(cfgRaw)
		cfg = hex.EncodeToString(c[:8])
	}
	return hex.EncodeToString(sum[:]) + "-" + cfg
}
