package contract

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// ReadCloser pairs a decompressing reader with the file under it.
type ReadCloser struct {
	io.Reader
	closers []func() error
	Raw     io.Reader // the file's bytes as read (through the hash, if any)
	Size    int64     // the file's size (0 unknown)
}

func (r *ReadCloser) Close() error {
	var first error
	for _, c := range r.closers {
		if err := c(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// MaxZstdWindow caps the window a zstd frame may declare: the decoder
// allocates it before the first byte, so a 150 KB file declaring 1 GiB
// cost 1.2 GB of memory per run. 128 MiB is zstd's own --long default
// (window log 27); a log compressed with a larger window is refused,
// naming the cap.
const MaxZstdWindow = 1 << 27

// maxExpansion bounds how many bytes a compressed log may decompress to
// per byte on disk (plus expansionSlack): gzip cannot exceed ~1032:1, and
// real logs compress 5–50:1, so only a bomb (a zstd frame of one repeated
// byte, a line of 64 GiB from a few MB) reaches it.
const (
	MaxExpansion   = 4096
	ExpansionSlack = 64 << 20
)

// ErrExpansion reports a compressed log that decompresses beyond
// maxExpansion times its size, or whose zstd window exceeds maxZstdWindow.
var ErrExpansion = errors.New("compressed log refused")

// BoundedReader is the decompressed stream of a compressed log: it
// refuses bytes beyond limit, and every read observes ctx (when set), so
// a cancel ends the read of a single enormous line, not only the wait for
// the next one.
type BoundedReader struct {
	r     io.Reader
	ctx   context.Context
	n     int64
	limit int64 // 0: no limit
	name  string
	// bigWindow: the first zstd frame declares a window over the cap
	// (the decoder's "window size exceeded" also says a block outgrew a
	// small window: a corrupt frame, not this).
	bigWindow bool
}

func (b *BoundedReader) Read(p []byte) (int, error) {
	if b.ctx != nil {
		if err := b.ctx.Err(); err != nil {
			return 0, err
		}
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.limit > 0 && b.n > b.limit {
		return n, fmt.Errorf("%s: %w: it decompresses to over %d bytes, more than %d times its size on disk: a compression bomb, not a log",
			b.name, ErrExpansion, b.limit, MaxExpansion)
	}
	if b.bigWindow && errors.Is(err, zstd.ErrWindowSizeExceeded) {
		err = fmt.Errorf("%s: %w: its zstd frame declares a window over %d MiB (decoding it would allocate that much); recompress it with zstd --long=27 or less",
			b.name, ErrExpansion, MaxZstdWindow>>20)
	}
	return n, err
}

// OpenEventsCtx is openEvents whose reads observe ctx: a cancel ends a
// read even within one line of any length.
func OpenEventsCtx(ctx context.Context, path string) (io.ReadCloser, error) {
	rc, err := OpenEventsHashed(path, nil)
	if err != nil {
		return nil, err
	}
	rc.Watch(ctx)
	return rc, nil
}

// Observe makes the reads of rc, opened by openEvents, observe ctx.
func Observe(ctx context.Context, rc io.ReadCloser) {
	if r, ok := rc.(*ReadCloser); ok {
		r.Watch(ctx)
	}
}

// Watch makes every read of r observe ctx.
func (r *ReadCloser) Watch(ctx context.Context) {
	if b, ok := r.Reader.(*BoundedReader); ok {
		b.ctx = ctx
		return
	}
	r.Reader = &BoundedReader{r: r.Reader, ctx: ctx, name: "events file"}
}

// OpenEvents opens an events file, sniffing gzip and zstd magic bytes
// (whatever the file name says).
func OpenEvents(path string) (io.ReadCloser, error) { return OpenEventsHashed(path, nil) }

// OpenEventsHashed is openEvents writing every byte read from the file
// into h (when not nil).
func OpenEventsHashed(path string, h io.Writer) (*ReadCloser, error) {
	return openEventsSized(path, h, streamBufSize)
}

// streamBufSize is the read buffer of an events stream; headBufSize that
// of a format sniff (ReadHead), which reads a few KiB once: the stream's
// 64 KiB would be 16 fresh pages for it.
const (
	streamBufSize = 64 << 10
	headBufSize   = 4 << 10
)

// openEventsSized is OpenEventsHashed with a read buffer of bufSize bytes.
func openEventsSized(path string, h io.Writer, bufSize int) (*ReadCloser, error) {
	f, err := safeopen.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open events file: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		st = nil
	}
	raw := cachedFileReader(f, st)
	if h != nil {
		raw = io.TeeReader(raw, h)
	}
	rc, err := decompressSized(raw, path, bufSize)
	if err != nil {
		f.Close()
		return nil, err
	}
	rc.closers = append(rc.closers, f.Close)
	rc.Raw = raw
	if st != nil && st.Mode().IsRegular() {
		rc.Size = st.Size()
	}
	if b, ok := rc.Reader.(*BoundedReader); ok && rc.Size > 0 {
		b.limit = rc.Size*MaxExpansion + ExpansionSlack
	}
	return rc, nil
}

// Decompress wraps r according to its first bytes.
func Decompress(r io.Reader, name string) (*ReadCloser, error) {
	return decompressSized(r, name, streamBufSize)
}

// decompressSized is Decompress reading r through a buffer of bufSize
// bytes.
func decompressSized(r io.Reader, name string, bufSize int) (*ReadCloser, error) {
	br := bufio.NewReaderSize(r, bufSize)
	magic, _ := br.Peek(4)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		// The standard library's gzip, not klauspost's: that one's flate
		// package builds 42 KB of encoder tables at package init, paid by
		// every process (steadysweep --version included) to read a format
		// few logs are in; its inflate is ~20% cheaper in CPU.
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, &ParseError{File: name, Line: 1, Err: fmt.Errorf("%w: gzip: %v", ErrCorruptStream, err)}
		}
		return &ReadCloser{Reader: &BoundedReader{r: zr, name: name}, closers: []func() error{zr.Close}}, nil
	case len(magic) == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd:
		hdr, _ := br.Peek(18)
		big := ZstdDeclaredWindow(hdr) > MaxZstdWindow
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(MaxZstdWindow))
		if err != nil {
			return nil, &ParseError{File: name, Line: 1, Err: fmt.Errorf("%w: zstd: %v", ErrCorruptStream, err)}
		}
		return &ReadCloser{Reader: &BoundedReader{r: zr, name: name, bigWindow: big}, closers: []func() error{func() error { zr.Close(); return nil }}}, nil
	}
	return &ReadCloser{Reader: br}, nil
}

// ZstdDeclaredWindow is the window the zstd frame starting hdr declares
// (RFC 8878 §3.1.1.1: the window descriptor, or the frame content size
// of a single-segment frame); 0 when hdr is too short to say.
func ZstdDeclaredWindow(hdr []byte) uint64 {
	if len(hdr) < 6 {
		return 0
	}
	fhd := hdr[4]
	if fhd&0x20 == 0 { // a window descriptor follows
		exp, mant := uint64(hdr[5]>>3), uint64(hdr[5]&7)
		base := uint64(1) << (10 + exp)
		return base + base/8*mant
	}
	at := 5 + []int{0, 1, 2, 4}[fhd&3] // after the dictionary ID
	size := []int{1, 2, 4, 8}[fhd>>6]
	if len(hdr) < at+size {
		return 0
	}
	var v uint64
	for i := size - 1; i >= 0; i-- {
		v = v<<8 | uint64(hdr[at+i])
	}
	if size == 2 {
		v += 256
	}
	return v
}
