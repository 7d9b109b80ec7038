package sinks

import (
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/zstd"
)

// smallPageZstd is the zstd codec of every Parquet file this process
// writes. arrow-go's own encodes each page with a pooled encoder at the
// default level, which reserves an 8 MiB window and its match tables; a
// sync.Pool loses it at every GC, so a sweep allocated tens of MB afresh
// at each row-group flush (BenchmarkSeriesWriterHeap: 30–50 MB of peak
// heap for 5,400 series rows; 6 MB uncompressed), and a sweep of 300
// runs peaked at 1.42× the RSS of 30 (its 30 runs never flush mid-way). Our pages are a row group's column chunks (≤ 4096 values), so a
// 1 MiB window loses nothing, and one encoder (EncodeAll is safe for
// concurrent use) with the library's low-memory tables is kept for the
// process: the same peak is 10.5–12.4 MB, and 300 runs peak at 1.18× 30. The bytes are standard zstd frames;
// decoding is the library's.
type smallPageZstd struct {
	compress.Codec // the library's codec: decoders and streaming writers
	enc            *zstd.Encoder
}

func (c smallPageZstd) Encode(dst, src []byte) []byte { return c.enc.EncodeAll(src, dst[:0]) }

func (c smallPageZstd) EncodeLevel(dst, src []byte, _ int) []byte {
	return c.enc.EncodeAll(src, dst[:0])
}

// init registers smallPageZstd in arrow-go's codec registry (the only
// way to give its Parquet writer an encoder); should either step fail,
// the library's codec stays.
func init() {
	lib, err := compress.GetCodec(compress.Codecs.Zstd)
	if err != nil {
		return
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true),
		zstd.WithWindowSize(1<<20), zstd.WithZeroFrames(true), zstd.WithAllLitEntropyCompression(true))
	if err != nil {
		return
	}
	compress.RegisterCodec(compress.Codecs.Zstd, smallPageZstd{Codec: lib, enc: enc})
}
