package cache

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/steadysweep/steadysweep/internal/sha256"
)

// digests are what the cache knows of an events file's bytes: Key, its
// content key (contract.NewContentKey: XXH3-128, hex), the name of its
// entries in a private cache; SHA, its SHA-256 (hex), the name of its
// entries in a shared cache (shared.go) and the rows' events_sha256. Either
// is "" when it was not computed: a cold analyze computes the key only,
// while it decodes; a sweep (HashEvents) both.
type digests struct{ Key, SHA string }

// content is the digest that names d's entries: the SHA-256 in a shared
// cache, whose writers are not trusted (a forger could make two logs of
// one XXH3 sum, not of one SHA-256), else the content key.
func (d digests) content(shared bool) string {
	if shared {
		return d.SHA
	}
	return d.Key
}

// merge fills what d lacks from o, when o is of the same bytes (no digest
// of theirs differs).
func (d *digests) merge(o digests) {
	if (d.Key != "" && o.Key != "" && d.Key != o.Key) || (d.SHA != "" && o.SHA != "" && d.SHA != o.SHA) {
		return
	}
	d.Key, d.SHA = cmp.Or(d.Key, o.Key), cmp.Or(d.SHA, o.SHA)
}

// hashFile returns the digests of the file at path that are asked for
// (key, sha), read once.
func hashFile(path string, key, sha bool) (digests, error) {
	f, err := safeopen.Open(path)
	if err != nil {
		return digests{}, err
	}
	defer f.Close()
	var hk, hs hash.Hash
	var ws []io.Writer
	if key {
		hk = contract.NewContentKey()
		ws = append(ws, hk)
	}
	if sha {
		hs = sha256.New()
		ws = append(ws, hs)
	}
	if _, err := io.Copy(io.MultiWriter(ws...), f); err != nil {
		return digests{}, fmt.Errorf("hash %s: %w", path, err)
	}
	var d digests
	if hk != nil {
		d.Key = hex.EncodeToString(hk.Sum(nil))
	}
	if hs != nil {
		d.SHA = hex.EncodeToString(hs.Sum(nil))
	}
	return d, nil
}

// fileHashes memoizes hashFile by file identity for this process: the
// benchmarks of one GuideLLM report are as many runs of one file, hashed
// once, not once per benchmark.
var fileHashes sync.Map // [5]int64 → digests

// hashFileOnce is hashFile, once per file identity id (when it proves
// anything: an inode and a ctime) and digest.
func hashFileOnce(path string, id [5]int64, key, sha bool) (digests, error) {
	if id[1] == 0 || id[4] == 0 {
		return hashFile(path, key, sha)
	}
	var d digests
	if v, ok := fileHashes.Load(id); ok {
		d = v.(digests)
	}
	key, sha = key && d.Key == "", sha && d.SHA == ""
	if !key && !sha {
		return d, nil
	}
	FileHashReads.Add(1)
	got, err := hashFile(path, key, sha)
	if err != nil {
		return d, err
	}
	got.merge(d)
	fileHashes.Store(id, got)
	return got, nil
}

// FileHashReads counts hashFileOnce's reads (a test's evidence).
var FileHashReads atomic.Int64

// identityPath is the ids/ file of a file identity.
func (c *Cache) identityPath(id [5]int64) string {
	var b [40]byte
	for i, v := range id {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
	}
	sum := sha256.Sum256(b[:])
	return filepath.Join(c.dir(), "ids", hex.EncodeToString(sum[:16]))
}

// identityDigests returns the digests recorded for id: a line of the
// SHA-256 (64 hex digits) and one of the content key (32), each present
// when it was computed.
func (c *Cache) identityDigests(id [5]int64) (digests, bool) {
	if id[0] == 0 && id[1] == 0 && id[4] == 0 {
		return digests{}, false // no inode or ctime: the identity proves nothing
	}
	if c.dir() == "" {
		return digests{}, false // no cache directory (DefaultCacheDir)
	}
	f, err := safeopen.Open(c.identityPath(id))
	if err != nil {
		return digests{}, false
	}
	defer f.Close()
	var b [2*(64+1) + 1]byte
	n, _ := io.ReadFull(f, b[:])
	s, ok := strings.CutSuffix(string(b[:n]), "\n")
	if !ok || n > 64+1+32+1 {
		return digests{}, false
	}
	var d digests
	for _, line := range strings.Split(s, "\n") {
		if _, err := hex.DecodeString(line); err != nil {
			return digests{}, false
		}
		switch {
		case len(line) == 64 && d.SHA == "":
			d.SHA = line
		case len(line) == 32 && d.Key == "":
			d.Key = line
		default:
			return digests{}, false
		}
	}
	return d, true
}

// recordIdentity records that the file of identity id has digests d
// (with those already recorded for the same bytes).
func (c *Cache) recordIdentity(id [5]int64, d digests) error {
	if id[0] == 0 && id[1] == 0 && id[4] == 0 {
		return nil
	}
	if old, ok := c.identityDigests(id); ok {
		d.merge(old)
	}
	var b strings.Builder
	for _, s := range []string{d.SHA, d.Key} {
		if s != "" {
			b.WriteString(s + "\n")
		}
	}
	path := c.identityPath(id)
	return writeCacheFile(filepath.Dir(path), filepath.Base(path), []byte(b.String()))
}
