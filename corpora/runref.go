package corpora

import (
	"encoding/hex"
	"hash/fnv"

	"github.com/steadysweep/steadysweep/internal/sha256"
)

// RunRef names one run found by Discover.
type RunRef struct {
	// Root is the root the run was found under, as given to Discover.
	Root string
	// Path is the run directory (or, for a root that is an events file,
	// that file): filepath.Join(Root, Rel) in the caller's path syntax.
	Path string
	// Rel is the run's path relative to Root in slash form. A root that is
	// itself a run gets the root's base name, so Rel is never "." or "".
	// Rel is the run's identity: RunID and Shard hash it, so moving or
	// re-mounting an archive keeps ids and shard assignment.
	Rel string
	// EventsPath is the events file the run resolves to.
	EventsPath string
}

// RunID returns the stable identifier of the run: the first 16 hex digits
// of the SHA-256 of Rel.
func (r RunRef) RunID() string {
	sum := sha256.Sum256([]byte(r.Rel))
	return hex.EncodeToString(sum[:8])
}

// ShardKey returns the FNV-1a 64 hash of Rel; run r belongs to shard
// ShardKey() % N.
func (r RunRef) ShardKey() uint64 {
	h := fnv.New64a()
	h.Write([]byte(r.Rel))
	return h.Sum64()
}
