package columnar

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/steadysweep/steadysweep/sinks/atomicfile"
)

// Cache stores ingested tables as Arrow IPC files so a run is decoded
// (and tokenized) once.
//
// An entry is keyed by the schema version, the token counter's identity,
// the tokenize-sample setting, the events file's size, mtime and a
// content fingerprint (SHA-256 over its size, first and last MiB and 64
// evenly spaced 64 KiB windows), and the size and mtime of its sidecars.
// The entry file is named KEY-DIGEST.arrow where DIGEST is the SHA-256 of
// the file itself: a read checks it, so a torn or corrupt entry is never
// trusted; it is removed and rebuilt. Entries are written to a temporary
// file, synced and renamed, so concurrent processes at worst write the
// same entry twice.
type Cache struct {
	// Dir is the cache directory (DefaultCacheDir() when empty).
	Dir string
}

// DefaultCacheDir returns $XDG_CACHE_HOME/steadysweep, else
// ~/.cache/steadysweep.
func DefaultCacheDir() string {
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "steadysweep")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".cache", "steadysweep")
	}
	return filepath.Join(os.TempDir(), "steadysweep-cache")
}

func (c *Cache) dir() string {
	if c.Dir != "" {
		return c.Dir
	}
	return DefaultCacheDir()
}

// Ingest returns the run's table from the cache when a valid entry
// exists (hit = true), else ingests the run and stores the result. A
// cache that cannot be written is reported in run.Warnings, not as an
// error.
func (c *Cache) Ingest(ctx context.Context, run *Run, opts IngestOptions) (*Table, bool, error) {
	key, err := cacheKey(run, opts)
	if err != nil {
		return nil, false, err
	}
	if t := c.load(key, opts.Allocator, run); t != nil {
		return t, true, nil
	}
	t, err := Ingest(ctx, run, opts)
	if err != nil {
		return nil, false, err
	}
	if err := c.store(key, t); err != nil {
		run.warnf("cache: %v", err)
	}
	return t, false, nil
}

// cacheKey derives the entry key of run under opts.
func cacheKey(run *Run, opts IngestOptions) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "steadysweep-cache\x00schema=%d\x00", SchemaVersion)
	counter := "none"
	if opts.Counter != nil {
		counter = opts.Counter.Identity()
	}
	fmt.Fprintf(h, "counter=%q\x00sample=%d\x00S=%d\x00", counter, opts.TokenizeSample, run.Info.DatasetSize)
	if run.Format != "" && run.Format != FormatEndpoints {
		fmt.Fprintf(h, "format=%s\x00part=%d\x00", run.Format, run.Part) // one report, several runs
	}
	if err := fingerprint(h, run.EventsPath); err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	for _, name := range []string{"config.yaml", "run_meta.json", "sample_idx_map.json"} {
		if st, err := os.Stat(filepath.Join(run.Dir, name)); err == nil {
			fmt.Fprintf(h, "%s=%d/%d\x00", name, st.Size(), st.ModTime().UnixNano())
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// fingerprint hashes the size, mtime and sampled content of a file.
func fingerprint(h hash.Hash, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	binary.Write(h, binary.LittleEndian, [2]int64{size, st.ModTime().UnixNano()})
	const edge, window, windows = 1 << 20, 64 << 10, 64
	buf := make([]byte, edge)
	read := func(off int64, n int64) error {
		if off < 0 {
			off = 0
		}
		n = min(n, size-off)
		if n <= 0 {
			return nil
		}
		if _, err := f.ReadAt(buf[:n], off); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		h.Write(buf[:n])
		return nil
	}
	if err := read(0, edge); err != nil {
		return err
	}
	if err := read(size-edge, edge); err != nil {
		return err
	}
	if size > 2*edge {
		for i := int64(0); i < windows; i++ {
			if err := read(edge+i*(size-2*edge)/windows, window); err != nil {
				return err
			}
		}
	}
	return nil
}

// load returns a valid entry for key, or nil. Invalid entries are removed.
func (c *Cache) load(key string, mem memory.Allocator, run *Run) *Table {
	matches, _ := filepath.Glob(filepath.Join(c.dir(), key+"-*.arrow"))
	for _, path := range matches {
		t, err := readEntry(path, mem)
		if err == nil {
			// The key has no path: an identical copy of the log (same
			// content, size and mtime, e.g. after cp -a) shares the entry,
			// whose problems must name this run's file.
			t.Summary.File = run.EventsPath
			t.Summary.restoreFirst()
			return t
		}
		run.warnf("cache: discarding %s: %v", path, err)
		os.Remove(path)
	}
	return nil
}

// readEntry reads and validates one entry file.
func readEntry(path string, mem memory.Allocator) (t *Table, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(filepath.Base(path), ".arrow")
	dash := strings.LastIndexByte(base, '-')
	sum := sha256.Sum256(b)
	if dash < 0 || base[dash+1:] != hex.EncodeToString(sum[:])[:32] {
		return nil, errors.New("checksum mismatch")
	}
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("unreadable Arrow IPC file: %v", r)
		}
	}()
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	fr, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	defer fr.Close()
	if fr.NumRecords() != 1 {
		return nil, fmt.Errorf("%d record batches, want 1", fr.NumRecords())
	}
	rec, err := fr.RecordBatchAt(0)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	return tableFromRecord(rec)
}

// store writes t as the entry for key, atomically (sinks/atomicfile); the
// entry's name holds the hash of its bytes.
func (c *Cache) store(key string, t *Table) (err error) {
	dir := c.dir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := atomicfile.Create(filepath.Join(dir, key+".arrow"))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Abort()
		}
	}()
	h := sha256.New()
	w, err := ipc.NewFileWriter(io.MultiWriter(f, h), ipc.WithSchema(t.Record.Schema()))
	if err != nil {
		return fmt.Errorf("write entry: %w", err)
	}
	if err := w.Write(t.Record); err != nil {
		return errors.Join(fmt.Errorf("write entry: %w", err), w.Close())
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("write entry: %w", err)
	}
	return f.CommitAs(filepath.Join(dir, key+"-"+hex.EncodeToString(h.Sum(nil))[:32]+".arrow"))
}
