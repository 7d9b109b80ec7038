// Package atomicfile writes output files atomically: the bytes go to a
// temporary file created exclusively (O_EXCL, never through a symbolic
// link at its name) in the target's directory, which is synced and then
// renamed over the target, so a reader sees the old file or the whole new
// one and a failure leaves nothing under the target's name. New files get
// mode 0644 as masked by the process umask (unlike os.CreateTemp's 0600).
// An existing target that is not a regular file (a symbolic link, a
// directory, a named pipe, a device such as /dev/stdout) is refused with
// an error: replacing it would not do what the user meant. Callers that
// accept "-" for standard output handle it themselves.
//
// It imports only the standard library, so every package but core may use
// it (docs/architecture.txt).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Mode is the permission of a new file before the umask.
const Mode fs.FileMode = 0o644

// tempAttempts bounds the retries when a temporary name is taken.
const tempAttempts = 100

// File is an atomic write in progress: write to it, then Commit to put it
// in place or Abort to discard it.
type File struct {
	f      *os.File
	path   string
	tmp    string
	closed bool
	// written counts the bytes written, queued how many of them were
	// handed to the kernel's writeback (startWriteback).
	written, queued int64
	nosync          bool
}

// writeBehind is how many written bytes a File gathers before it starts
// their writeback: a long run's 107 MB result is then mostly on its way
// to disk while the rest is encoded, and Commit's fsync (on its critical
// path at the end of the command) waits for the last few megabytes only.
const writeBehind = 8 << 20

// Create starts an atomic write of path. It fails when path exists and is
// not a regular file, or when its directory cannot hold a temporary file.
func Create(path string) (*File, error) {
	if err := checkTarget(path); err != nil {
		return nil, err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	for range tempAttempts {
		tmp := filepath.Join(dir, tempName(base))
		// O_EXCL with O_CREATE fails on any existing name, a symbolic link
		// included, so the write never goes through a link planted there.
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, Mode)
		if errors.Is(err, fs.ErrExist) {
			continue // taken (by a file or a link): another name
		}
		if err != nil {
			// The temporary's name is ours, not the caller's: the error
			// names the path asked for and why it cannot be written.
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("cannot write %s: %w", path, err)
		}
		return &File{f: f, path: path, tmp: tmp}, nil
	}
	return nil, fmt.Errorf("create temporary file for %s: no free name after %d attempts", path, tempAttempts)
}

// tempName is the name of a temporary file for base: hidden, random, with
// the suffix ".tmp" (a variable so a test can make it collide).
var tempName = func(base string) string {
	return "." + base + "." + strconv.FormatUint(rand.Uint64()>>16, 36) + ".tmp"
}

// checkTarget refuses an existing path that is not a regular file.
func checkTarget(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode().IsRegular():
		return nil
	}
	return fmt.Errorf("refusing to replace %s: it is %s, not a regular file", path, kind(fi.Mode()))
}

// kind names a non-regular file type.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// Write writes p to the temporary file; every writeBehind bytes it starts
// their writeback, unless the file is Unsynced (no fsync to shorten).
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	f.written += int64(n)
	if !f.nosync && f.written-f.queued >= writeBehind {
		startWriteback(f.f, f.queued, f.written-f.queued)
		f.queued = f.written
	}
	return n, err
}

// Name returns the target path.
func (f *File) Name() string { return f.path }

// Unsynced makes Commit skip the syncs of the file and its directory:
// the rename stays atomic, but a crash may leave the target empty or torn.
// It is for files whose reader checks them and rebuilds a bad one (a
// checksummed cache entry), where a sync per file is most of the wall
// time of writing it (10–20 ms on a virtual disk, three files per cache
// fill of a cold analyze). It returns f.
func (f *File) Unsynced() *File {
	f.nosync = true
	return f
}

// Commit syncs and closes the temporary file and renames it over the
// target (checked again, so a non-regular file that appeared meanwhile is
// not replaced). On any failure the temporary file is removed.
func (f *File) Commit() error {
	if f.closed {
		return fmt.Errorf("commit %s: already finished", f.path)
	}
	f.closed = true
	var err error
	if !f.nosync {
		if err = f.f.Sync(); err != nil {
			err = fmt.Errorf("sync %s: %w", f.tmp, err)
		}
	}
	if cerr := f.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("close %s: %w", f.tmp, cerr)
	}
	if err == nil {
		err = checkTarget(f.path)
	}
	if err == nil {
		err = os.Rename(f.tmp, f.path)
	}
	if err != nil {
		return errors.Join(err, removeTemp(f.tmp))
	}
	if !f.nosync {
		syncDir(filepath.Dir(f.path))
	}
	return nil
}

// CommitAs is Commit renaming to path instead, which must be in the
// directory of the path given to Create: for a name known only once the
// bytes are written (a content hash).
func (f *File) CommitAs(path string) error {
	if filepath.Dir(path) != filepath.Dir(f.path) {
		return errors.Join(fmt.Errorf("commit %s as %s: not in the same directory", f.path, path), f.Abort())
	}
	f.path = path
	return f.Commit()
}

// Abort discards the write: the temporary file is closed and removed. It
// is a no-op after Commit or an earlier Abort.
func (f *File) Abort() error {
	if f.closed {
		return nil
	}
	f.closed = true
	return errors.Join(f.f.Close(), removeTemp(f.tmp))
}

func removeTemp(tmp string) error {
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// syncDir makes a rename in dir durable where the platform allows it (a
// failure only weakens durability, never the atomicity, so it is ignored).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// WriteWith writes path atomically with the bytes fill writes; when fill
// fails nothing is left under path's name and fill's error is returned.
func WriteWith(path string, fill func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		return errors.Join(err, f.Abort())
	}
	return f.Commit()
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	return WriteWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
