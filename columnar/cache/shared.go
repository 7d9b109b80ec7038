package cache

import (
	"os"
	"path/filepath"
)

// A cache directory others can write (group- or other-writable, or owned
// by another user: a team's --cache-dir on a common filesystem) is shared,
// and its writers are not trusted: an identity file under ids/ could name
// the SHA-256 of a forged log of the same size and mtime, and the entry
// of that forgery would be served as the run's columns (issue 30: TPOT
// p50 993.29 ms reported for a run of 279.00 ms). In a shared directory a
// lookup therefore hashes the events file itself and uses an entry only
// when that hash is the one its identity file records (and the entry's
// name carries), and only an entry file of the user's own (owned, not
// group- or other-writable): a hash of the log cannot tell forged columns
// from decoded ones, so another user's entries are misses, decoded and
// stored again. A private directory keeps the lookup that never reads
// the events file.

// shared reports whether the cache directory, or the identity file or an
// entry file found in it (paths), may have been written by another user.
// A path that cannot be examined counts as shared.
func (c *Cache) shared(paths ...string) bool {
	uid := currentUID()
	for i, p := range append([]string{c.dir(), filepath.Join(c.dir(), "ids")}, paths...) {
		stat := os.Lstat // an entry or identity file is never a link (safeopen)
		if i < 2 {
			stat = os.Stat // the directories may be (~/.cache → /data/…)
		}
		fi, err := stat(p)
		if os.IsNotExist(err) && i > 0 {
			continue // no ids/ yet, or an entry a lookup will not find
		}
		if err != nil || !privateTo(fi, uid) {
			return true
		}
	}
	return false
}
