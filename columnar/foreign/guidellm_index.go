package foreign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// guidellmIndex is what one pass over a GuideLLM report learns, so that
// each of its benchmarks (one run each: a report of 10,000 load levels is
// 10,000 runs) is read from its own offset instead of re-streaming the
// report from the start (quadratic: ~35 minutes for 16 MB).
type guidellmIndex struct {
	// offsets are the byte offsets of the benchmarks[] elements in the
	// report's JSON (after decompression; for YAML, in its JSON form).
	offsets []int64
	version string
	args    guidellmArgs
	argsBad bool
	// err is the walk's error (a report cut short or damaged), at errAt,
	// after the offsets found before it.
	err   error
	errAt string
	// seekable: the report is a plain JSON file, read at an offset by a
	// seek (a compressed or YAML one is re-read up to it, unparsed).
	seekable bool
}

// IndexKey names a report's content: its path and file identity (a write
// changes the identity, so an edited report is indexed again).
type IndexKey struct {
	Path string
	ID   [5]int64
}

// guidellmIndexes holds the indices of the reports met in this process:
// discovery counts a report's benchmarks, and each run's reader then
// finds its benchmark by the same index.
var guidellmIndexes sync.Map // indexKey → *guidellmIndex

// GuideLLMIndexBuilds counts index walks (a test's evidence of one walk
// per report).
var GuideLLMIndexBuilds atomic.Int64

// indexGuideLLM returns the index of the report at path, walking it once
// per file identity (the walk observes ctx at every read and every 1024
// benchmarks; a cancelled walk is not kept).
func indexGuideLLM(ctx context.Context, path string) (*guidellmIndex, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := IndexKey{path, contract.FileIdentity(fi)}
	if v, ok := guidellmIndexes.Load(key); ok {
		return v.(*guidellmIndex), nil
	}
	src, closer, err := openReport(path)
	if err != nil {
		return nil, err
	}
	defer closer()
	GuideLLMIndexBuilds.Add(1)
	idx := &guidellmIndex{}
	if rc, ok := src.(*contract.ReadCloser); ok {
		_, compressed := rc.Reader.(*contract.BoundedReader)
		idx.seekable = !compressed && rc.Size > 0
		rc.Watch(ctx) // a cancel ends a read within one benchmark of any size
	}
	w := scan.NewJSONWalker(src, contract.DefaultMaxLineSize)
	at := "the report"
	err = w.Members(func(key string) error {
		switch key {
		case "metadata":
			var md struct {
				Version string `json:"guidellm_version"`
			}
			if w.Decode(&md) == nil {
				idx.version = md.Version
			}
			return nil
		case "args":
			if err := w.Decode(&idx.args); err != nil {
				idx.argsBad = true
			}
			return nil
		case "benchmarks":
			return w.Elements(func(i int) error {
				if i%1024 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				at = fmt.Sprintf("benchmarks[%d]", i)
				idx.offsets = append(idx.offsets, w.Off)
				return w.Skip()
			})
		}
		return w.Skip()
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		idx.err, idx.errAt = err, at
	}
	if fi2, err := os.Stat(path); err == nil && contract.FileIdentity(fi2) == key.ID {
		guidellmIndexes.Store(key, idx)
	}
	return idx, nil
}

// openBenchmark returns the report's JSON positioned at benchmark part's
// offset off: a seek in a plain file, else a re-read of the bytes before
// it without parsing them.
func openBenchmark(path string, idx *guidellmIndex, off int64) (io.Reader, func() error, error) {
	if idx.seekable {
		f, err := safeopen.Open(path)
		if err != nil {
			return nil, nil, err
		}
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			f.Close()
			return nil, nil, err
		}
		return f, f.Close, nil
	}
	src, closer, err := openReport(path)
	if err != nil {
		return nil, nil, err
	}
	if _, err := io.CopyN(io.Discard, src, off); err != nil {
		closer()
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return src, closer, nil
}
