package cache

import (
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/zeebo/xxh3"
)

// ConfigMemo is the cache's memo of config.yaml documents
// (sidecar.ConfigMemo), or nil when the cache directory is shared (its
// other writers could plant a record) or there is none. A record is the
// file configs/XXH (XXH the XXH3-128 of the document) holding the memo
// version, the document's bytes and its Config (configrecord.go); it is used
// only when the file is the user's own and holds these very bytes, so
// neither a hash collision nor a record renamed to another document's
// name reads as that document. Records are small (the document twice,
// about) and shared by every run of the same config.
func (c *Cache) ConfigMemo() sidecar.ConfigMemo {
	dir := c.dir()
	if dir == "" {
		return nil
	}
	// A directory not made yet is made by Remember, the user's own (as a
	// fill makes it).
	if _, err := os.Stat(dir); err == nil && c.shared() {
		return nil
	}
	return configMemo{dir: filepath.Join(dir, "configs")}
}

// configMemo keeps its records under dir.
type configMemo struct{ dir string }

// limitConfigRecord bounds a record read: its document is bounded by
// safeopen.LimitConfig, and its Config's strings are parts of it.
const limitConfigRecord = 2*safeopen.LimitConfig + 4096

func (m configMemo) path(doc []byte) string {
	sum := xxh3.Hash128(doc).Bytes()
	return filepath.Join(m.dir, hex.EncodeToString(sum[:]))
}

func (m configMemo) Parsed(doc []byte) (*sidecar.Config, bool) {
	path := m.path(doc)
	f, st, err := safeopen.OpenNoFollow(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if !privateTo(st, currentUID()) {
		return nil, false
	}
	b, err := safeopen.ReadOpen(f, st, path, "a config memo", limitConfigRecord)
	if err != nil {
		return nil, false
	}
	return decodeConfigRecord(b, doc)
}

func (m configMemo) Remember(doc []byte, c *sidecar.Config) {
	b := encodeConfigRecord(doc, c)
	if err := os.MkdirAll(m.dir, 0o755); err != nil {
		return
	}
	// Unsynced: a record a crash leaves torn or empty does not decode
	// (decodeConfigRecord checks its version, lengths and document): a
	// miss, parsed and written again.
	f, err := atomicfile.Create(m.path(doc))
	if err != nil {
		return
	}
	if _, err := f.Unsynced().Write(b); err != nil {
		f.Abort()
		return
	}
	f.Commit()
}
