package sweep

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// An output directory has one writer per shard at a time. Every sweep
// locks OUT/.steadysweep.lock: exclusively when unsharded, shared when
// sharded (the shards of one sweep share OUT), and a sharded sweep also
// locks OUT/.steadysweep-<i>of<N>.lock exclusively. So a second sweep into
// the same OUT, or a second copy of one shard (a resubmitted array task
// while the first still runs), fails at once instead of both picking the
// same part sequence numbers (one rename then replaces the other's file)
// and deleting each other's live temporaries. The locks are flock(2)
// locks: the kernel drops them when the process dies, however it dies, so
// a crashed sweep never leaves OUT locked. The lock files stay in OUT
// (removing one could let two processes lock different files of one name).
//
// Where the filesystem has no flock (some network filesystems), the sweep
// runs unlocked with a warning, and leaves stale temporaries in place
// rather than risk deleting a live writer's.
const (
	lockName       = ".steadysweep.lock"
	shardLockFmt   = ".steadysweep-%s.lock"
	maxLockContent = 4 << 10
)

// outputLock is the set of locks a sweep holds on its output directory.
type outputLock struct {
	files []lockFile
	// unsupported is why locking was skipped ("" when locked).
	unsupported string
}

// lockOutput takes shard's locks on the directory out (which exists).
func lockOutput(out string, shard Shard) (*outputLock, error) {
	l := &outputLock{}
	want := []struct {
		name      string
		exclusive bool
	}{{lockName, shard.Count <= 1}}
	if shard.Count > 1 {
		want = append(want, struct {
			name      string
			exclusive bool
		}{fmt.Sprintf(shardLockFmt, shard), true})
	}
	for _, w := range want {
		path := filepath.Join(out, w.name)
		f, err := acquireLock(path, w.exclusive)
		if err == errLockUnsupported {
			l.release()
			return &outputLock{unsupported: fmt.Sprintf("%s: the filesystem has no flock; sweeping %s without its lock (do not start a second sweep into it)", path, out)}, nil
		}
		if err == errLockHeld {
			l.release()
			who := "another sweep"
			if pid := lockHolder(path); pid > 0 {
				who = fmt.Sprintf("another sweep (pid %d)", pid)
			}
			what := "output directory " + out
			if w.name != lockName {
				what = fmt.Sprintf("shard %s of output directory %s", shard, out)
			}
			return nil, fmt.Errorf("%s is in use by %s (lock %s): wait for it to finish, or use another -o", what, who, path)
		}
		if err != nil {
			l.release()
			return nil, fmt.Errorf("lock output directory: %w", err)
		}
		l.files = append(l.files, f)
	}
	return l, nil
}

// release drops the locks (closing the files does it).
func (l *outputLock) release() {
	for _, f := range l.files {
		f.close()
	}
	l.files = nil
}

// lockHolder returns the pid recorded in a lock file, 0 if none (the
// record is informative: the lock itself is the flock).
func lockHolder(path string) int {
	b, err := safeopen.ReadFile(path, "lock files", maxLockContent)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(b), "\n", 2)[0], "pid ")))
	return pid
}
