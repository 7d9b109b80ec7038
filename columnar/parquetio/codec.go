package parquetio

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// Codec is a page compression codec (parquet.thrift enum
// CompressionCodec). We write Uncompressed, Snappy and Zstd, and read
// those and Gzip.
type Codec int32

const (
	Uncompressed Codec = 0
	Snappy       Codec = 1
	Gzip         Codec = 2
	Zstd         Codec = 6
)

// codecNames are the codecs' names by number: an array the linker lays
// out, not a map built at every process start (issue 32).
var codecNames = [...]string{0: "UNCOMPRESSED", 1: "SNAPPY", 2: "GZIP", 3: "LZO", 4: "BROTLI", 5: "LZ4", 6: "ZSTD", 7: "LZ4_RAW"}

func (c Codec) String() string {
	if c >= 0 && int(c) < len(codecNames) {
		return codecNames[c]
	}
	return fmt.Sprintf("codec %d", int32(c))
}

// maxPageBytes bounds a page's uncompressed size. Writers cut pages at
// about 1 MiB (arrow-go, arrow-rs and parquet-mr by default); a header
// claiming more than this is not a table we write or read, and its size
// would be allocated before the codec could prove it a lie.
const maxPageBytes = 256 << 20

// expansion is the most a codec can expand its input: snappy's longest
// copy element (3 bytes for 64) bounds it at 64/3; deflate's at 1032
// (RFC 1951 lengths of 258 per 2 bits); zstd's RLE blocks (3 bytes of
// header and 1 of value for 128 KiB) at 32768. An uncompressed size
// beyond compressed × expansion is a lie.
func (c Codec) expansion() int {
	switch c {
	case Uncompressed:
		return 1
	case Snappy:
		return 22
	case Gzip:
		return 1032
	}
	return 32768
}

// zstdEncoder is the one zstd encoder of the process, made on first use
// (its tables are not paid by a process that writes no Parquet). Our
// pages are a row group's column chunks (≤ 4096 rows in the sweep
// tables), so a 1 MiB window loses nothing against the default 8 MiB,
// and the low-memory tables keep a sweep's peak heap near 10 MB
// (BenchmarkSeriesWriterHeap, sinks); EncodeAll is safe for concurrent
// use.
//
// A sync.Once, not a sync.OnceValues variable: that one's closures are
// made at package initialisation, in every process (issue 32).
func zstdEncoder() (*zstd.Encoder, error) {
	zstdCodecs.encOnce.Do(func() {
		zstdCodecs.enc, zstdCodecs.encErr = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true),
			zstd.WithWindowSize(1<<20), zstd.WithZeroFrames(true), zstd.WithAllLitEntropyCompression(true))
	})
	return zstdCodecs.enc, zstdCodecs.encErr
}

// zstdDecoder is the process's zstd decoder (DecodeAll is safe for
// concurrent use); its output is capped at the destination's capacity,
// the page's declared size.
func zstdDecoder() (*zstd.Decoder, error) {
	zstdCodecs.decOnce.Do(func() {
		zstdCodecs.dec, zstdCodecs.decErr = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true),
			zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(maxPageBytes))
	})
	return zstdCodecs.dec, zstdCodecs.decErr
}

var zstdCodecs struct {
	encOnce, decOnce sync.Once
	enc              *zstd.Encoder
	encErr           error
	dec              *zstd.Decoder
	decErr           error
}

// compress appends src compressed with c to dst.
func (c Codec) compress(dst, src []byte) ([]byte, error) {
	switch c {
	case Uncompressed:
		return append(dst, src...), nil
	case Snappy:
		return append(dst, s2.EncodeSnappyBetter(nil, src)...), nil
	case Zstd:
		enc, err := zstdEncoder()
		if err != nil {
			return nil, err
		}
		return enc.EncodeAll(src, dst), nil
	case Gzip:
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write(src); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return append(dst, buf.Bytes()...), nil
	}
	return nil, fmt.Errorf("compression %s is not written", c)
}

// decompress decodes src, whose uncompressed size the page header says
// is size, into dst (reused when large enough). The output must be size
// bytes exactly.
func (c Codec) decompress(dst, src []byte, size int) ([]byte, error) {
	if size > maxPageBytes || size > len(src)*c.expansion()+64 {
		return nil, fmt.Errorf("uncompressed size %d for %d %s bytes", size, len(src), c)
	}
	if cap(dst) < size {
		dst = make([]byte, 0, size)
	}
	dst = dst[:0]
	var (
		out []byte
		err error
	)
	switch c {
	case Uncompressed:
		out = append(dst, src...)
	case Snappy:
		n, derr := s2.DecodedLen(src)
		if derr != nil || n != size {
			return nil, fmt.Errorf("snappy block of %d bytes for a page of %d (%v)", n, size, derr)
		}
		out, err = s2.Decode(dst[:size], src)
	case Zstd:
		dec, derr := zstdDecoder()
		if derr != nil {
			return nil, derr
		}
		out, err = dec.DecodeAll(src, dst)
	case Gzip:
		zr, derr := gzip.NewReader(bytes.NewReader(src))
		if derr != nil {
			return nil, fmt.Errorf("gzip: %w", derr)
		}
		buf := bytes.NewBuffer(dst)
		_, err = io.Copy(buf, io.LimitReader(zr, int64(size)+1))
		out = buf.Bytes()
	default:
		return nil, fmt.Errorf("compression %s is not read (steadysweep reads UNCOMPRESSED, SNAPPY, GZIP, ZSTD)", c)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c, err)
	}
	if len(out) != size {
		return nil, fmt.Errorf("%s page decompresses to %d bytes, its header says %d", c, len(out), size)
	}
	return out, nil
}
