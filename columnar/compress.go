package columnar

import (
	"bufio"
	"fmt"
	"hash"
	"io"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/steadysweep/steadysweep/columnar/safeopen"
)

// readCloser pairs a decompressing reader with the file under it.
type readCloser struct {
	io.Reader
	closers []func() error
	raw     io.Reader // the file's bytes as read (through the hash, if any)
	size    int64     // the file's size (0 unknown)
}

func (r *readCloser) Close() error {
	var first error
	for _, c := range r.closers {
		if err := c(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// openEvents opens an events file, sniffing gzip and zstd magic bytes
// (whatever the file name says).
func openEvents(path string) (io.ReadCloser, error) { return openEventsHashed(path, nil) }

// openEventsHashed is openEvents writing every byte read from the file
// into h (when not nil).
func openEventsHashed(path string, h hash.Hash) (*readCloser, error) {
	f, err := safeopen.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open events file: %w", err)
	}
	var raw io.Reader = f
	if h != nil {
		raw = io.TeeReader(f, h)
	}
	rc, err := decompress(raw, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	rc.closers = append(rc.closers, f.Close)
	rc.raw = raw
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		rc.size = st.Size()
	}
	return rc, nil
}

// decompress wraps r according to its first bytes.
func decompress(r io.Reader, name string) (*readCloser, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, _ := br.Peek(4)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{File: name, Line: 1, Err: fmt.Errorf("%w: gzip: %v", ErrCorruptStream, err)}
		}
		return &readCloser{Reader: zr, closers: []func() error{zr.Close}}, nil
	case len(magic) == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd:
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<30))
		if err != nil {
			return nil, &ParseError{File: name, Line: 1, Err: fmt.Errorf("%w: zstd: %v", ErrCorruptStream, err)}
		}
		return &readCloser{Reader: zr, closers: []func() error{func() error { zr.Close(); return nil }}}, nil
	}
	return &readCloser{Reader: br}, nil
}
