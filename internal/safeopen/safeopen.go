// Package safeopen opens the inputs of steadysweep — events logs,
// sidecars, tokenizer files, summaries, grids, cache entries — so that no
// filesystem object can hang or exhaust the process.
//
// An archive is assembled by others and scanned recursively: a config.yaml
// may be a FIFO (os.Open blocks until a writer appears, forever), a
// run_meta.json a link to /dev/zero (os.ReadFile never ends), a tokenizer a
// 10 GB sparse file. Open therefore
//
//   - refuses anything that is not a regular file after following links
//     (a FIFO, a device, a socket, a directory) with an error naming the
//     file and what it is, before opening it;
//   - opens with O_NONBLOCK, so a file swapped for a FIFO between the check
//     and the open cannot block, and checks again on the open descriptor
//     (fstat), which is what is read;
//
// and ReadFile reads at most a per-kind limit, failing with an error that
// names the file and the limit:
//
//	config.yaml: larger than the 4 MiB limit for config.yaml (is it a config file?)
//	/dev/zero: is a character device, not a regular file
//
// A missing file keeps its fs.ErrNotExist, so "absent" stays distinguishable
// from "refused". The package uses only the standard library and may be
// imported from every package but core.
package safeopen

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
)

// The read limits of each kind of input. A limit is far above any real file
// of its kind (the largest seen is quoted) and far below what would exhaust
// memory once parsed.
const (
	// LimitConfig bounds config.yaml (real ones: ~1.4 KB).
	LimitConfig = 4 << 20
	// LimitRunMeta bounds run_meta.json (real ones: < 1 KB).
	LimitRunMeta = 4 << 20
	// LimitSampleIndex bounds sample_idx_map.json, 40 to 60 bytes a
	// sample (real ones: 121 KB for 2000 samples), read as a stream into
	// ~20 bytes a sample: some 20 million samples.
	LimitSampleIndex = 1 << 30
	// LimitSummary bounds result_summary.json, final_snapshot.json and the
	// --augment input (real ones: a few KB).
	LimitSummary = 16 << 20
	// LimitTokenizer bounds tokenizer.json, compressed on disk and again
	// after decompression (the largest of the five shared ones: 27 MB).
	LimitTokenizer = 128 << 20
	// LimitTokenizerConfig bounds tokenizer_config.json (chat templates
	// included; real ones: a few KB to a few hundred KB).
	LimitTokenizerConfig = 16 << 20
	// LimitHubRef bounds a Hugging Face cache refs/main file (a 40-digit hash).
	LimitHubRef = 4 << 10
	// LimitGrid bounds a --grid file.
	LimitGrid = 1 << 20
	// LimitTruth bounds a synthetic run's truth.json.
	LimitTruth = 16 << 20
	// LimitCacheEntry bounds a column-cache entry (a file of raw
	// per-sample columns, ~100 bytes a sample).
	LimitCacheEntry = 2 << 30
)

var (
	// ErrNotRegular is the error of an input that is not a regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is the error of an input over its kind's limit.
	ErrTooLarge = errors.New("over the size limit")
)

// Error is a refused input: Path and why. It wraps ErrNotRegular or
// ErrTooLarge.
type Error struct {
	Path string
	// What describes the object ("a named pipe (FIFO)") and Want what was
	// expected ("a regular file", "a directory") for ErrNotRegular; Limit
	// and Kind describe the bound for ErrTooLarge.
	What, Want string
	Kind       string
	Limit      int64
	Err        error
}

func (e *Error) Error() string {
	if errors.Is(e.Err, ErrTooLarge) {
		kind := e.Kind
		if kind == "" {
			kind = "this input"
		}
		return fmt.Sprintf("%s: larger than the %s limit for %s", e.Path, FormatSize(e.Limit), kind)
	}
	want := e.Want
	if want == "" {
		want = "a regular file"
	}
	return fmt.Sprintf("%s: is %s, not %s", e.Path, e.What, want)
}

func (e *Error) Unwrap() error { return e.Err }

// Describe names the type of a file mode for messages: "a named pipe
// (FIFO)", "a character device", "a directory", "a regular file", ….
func Describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file (" + m.Type().String() + ")"
}

// CheckRegular returns nil if path (links followed) is a regular file, an
// *Error wrapping ErrNotRegular if it is something else, and the stat
// error (fs.ErrNotExist for a missing file or a dangling link) otherwise.
// It opens nothing.
func CheckRegular(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &Error{Path: path, What: Describe(st.Mode()), Err: ErrNotRegular}
	}
	return nil
}

// CheckDir returns nil if path (links followed) is a directory, an *Error
// wrapping ErrNotRegular naming what it is otherwise, and the stat error
// if it cannot be examined.
func CheckDir(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return &Error{Path: path, What: Describe(st.Mode()), Want: "a directory", Err: ErrNotRegular}
	}
	return nil
}

// Open opens path for reading if it is a regular file: checked by stat
// before opening (devices are never opened), opened with O_NONBLOCK (a
// FIFO put in its place cannot block the open) and checked again on the
// descriptor. A missing file's error wraps fs.ErrNotExist.
func Open(path string) (*os.File, error) {
	if err := CheckRegular(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &Error{Path: path, What: Describe(st.Mode()), Err: ErrNotRegular}
	}
	return f, nil
}

// OpenNoFollow opens path for reading if it is itself a regular file, a
// symbolic link refused (O_NOFOLLOW) like a FIFO or a device, and returns
// the descriptor's own fstat: a caller that judges the file by its owner
// or mode judges the one it reads, whatever is renamed over path after
// the open (a shared cache's entry files). A missing file's error wraps
// fs.ErrNotExist.
func OpenNoFollow(path string) (*os.File, fs.FileInfo, error) {
	if st, err := os.Lstat(path); err != nil {
		return nil, nil, err
	} else if !st.Mode().IsRegular() {
		return nil, nil, &Error{Path: path, What: Describe(st.Mode()), Err: ErrNotRegular}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags|noFollow, 0)
	if err != nil {
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, &Error{Path: path, What: Describe(st.Mode()), Err: ErrNotRegular} // made a link since
		}
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, &Error{Path: path, What: Describe(st.Mode()), Err: ErrNotRegular}
	}
	return f, st, nil
}

// ReadFile reads the regular file path (see Open) whole, refusing it when
// it holds more than limit bytes; kind names the input in the error
// ("config.yaml", "tokenizer file"). The size is checked on the open file
// before reading and the read itself stops at limit+1 bytes, so a file that
// grows or lies about its size is bounded too.
func ReadFile(path, kind string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return ReadOpen(f, st, path, kind, limit)
}

// ReadOpen is ReadFile of the file f already open, st its fstat and path
// its name in errors.
func ReadOpen(f *os.File, st fs.FileInfo, path, kind string, limit int64) ([]byte, error) {
	if st.Size() > limit {
		return nil, &Error{Path: path, Kind: kind, Limit: limit, Err: ErrTooLarge}
	}
	return readSized(f, path, kind, limit, st.Size())
}

// readSized reads r, whose size was size when it was opened (0: unknown),
// to the end: into one buffer of size+1 bytes, so a file read whole costs
// one allocation and one copy (io.ReadAll grows its buffer by doubling:
// for a 10 MB cache entry that is ~15 reallocations, twice the copying,
// and a peak of old + new buffers). The extra byte tells a file that has
// grown since its stat, or a stream of unknown size; either is then read
// on, growing the buffer, and no read goes past limit+1 bytes in all.
func readSized(r io.Reader, name, kind string, limit, size int64) ([]byte, error) {
	most := int(min(limit, math.MaxInt-1)) + 1 // bytes ever read
	b := HugeRoom[byte](min(max(int(min(size, int64(most)))+1, 512), most))
	for {
		n, err := r.Read(b[len(b):min(cap(b), most)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, &Error{Path: name, Kind: kind, Limit: limit, Err: ErrTooLarge}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		if len(b) == cap(b) {
			b = slices.Grow(b, min(max(4096, len(b)/2), most-len(b)))
		}
	}
}

// ReadAll reads r to the end, failing with an *Error wrapping ErrTooLarge
// once it has produced more than limit bytes (for decompressed streams,
// whose size is not on disk). name is the file in the error.
func ReadAll(r io.Reader, name, kind string, limit int64) ([]byte, error) {
	return readSized(r, name, kind, limit, 0)
}

// LimitReader returns a reader of r that fails with an *Error wrapping
// ErrTooLarge once r has more than limit bytes, for inputs parsed as a
// stream rather than read whole. name is the file in the error.
func LimitReader(r io.Reader, name, kind string, limit int64) io.Reader {
	return &limitedReader{r: r, left: limit, err: &Error{Path: name, Kind: kind, Limit: limit, Err: ErrTooLarge}}
}

type limitedReader struct {
	r    io.Reader
	left int64 // bytes still allowed; one more is read to tell "exactly limit" from "over"
	err  error
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	if l.left -= int64(n); l.left < 0 {
		return n + int(l.left), l.err // the byte past the limit is not delivered
	}
	return n, err
}

// FormatSize renders a byte count in binary units: "4 MiB", "1.5 GiB",
// "512 B".
func FormatSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, i := float64(n)/unit, 0
	for v >= unit && i < len(units)-1 {
		v /= unit
		i++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}
