package columnar

import (
	"context"

	"github.com/steadysweep/steadysweep/columnar/cache"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
)

// Cache keeps ingested runs on disk so that a run is decoded (and
// tokenized) once: the entries, their keys and their checks are
// columnar/cache's; a miss decodes with Load.
type Cache struct {
	// Dir is the cache directory (DefaultCacheDir() when empty; when
	// that is empty too, nothing is cached).
	Dir string
}

// DefaultCacheDir is the one default cache directory (cache.DefaultCacheDir):
// $XDG_CACHE_HOME/steadysweep, else the user's cache directory's
// steadysweep/, else "" (no cache, never a shared temporary directory).
func DefaultCacheDir() string { return cache.DefaultCacheDir() }

func (c *Cache) entries() *cache.Cache { return &cache.Cache{Dir: c.Dir} }

// ConfigMemo is the cache's memo of config.yaml documents
// (cache.Cache.ConfigMemo), for ResolveRunMemo; nil when there is none.
func (c *Cache) ConfigMemo() sidecar.ConfigMemo { return c.entries().ConfigMemo() }

// Load returns the run's columns from the cache when a valid entry exists
// (hit = true), else decodes the run, hashing the events file as it is
// read, and stores the result. A cache that cannot be written is reported
// in run.Warnings, not as an error.
func (c *Cache) Load(ctx context.Context, run *Run, opts IngestOptions) (*Loaded, bool, error) {
	if l, ok := c.Lookup(run, opts); ok {
		return l, true, nil
	}
	l, err := c.Fill(ctx, run, opts)
	return l, false, err
}

// Lookup returns the run's columns when the cache holds a valid entry for
// them under opts, and never decodes. A caller that tunes for the decode
// (its memory grows with the file) calls Lookup, then Fill on a miss.
func (c *Cache) Lookup(run *Run, opts IngestOptions) (*Loaded, bool) {
	return c.entries().Lookup(run, opts)
}

// Fill decodes the run (Load), hashing the events file as it is read, and
// stores the result without looking for an entry first (Load does).
func (c *Cache) Fill(ctx context.Context, run *Run, opts IngestOptions) (*Loaded, error) {
	return c.entries().Fill(ctx, run, opts, Load)
}

// FillLater is Fill leaving the entry's write to the caller
// (cache.Cache.FillLater): store, when not nil, writes it and returns the
// warning Fill would give; the columns must not change until it returns.
func (c *Cache) FillLater(ctx context.Context, run *Run, opts IngestOptions) (*Loaded, func() error, error) {
	return c.entries().FillLater(ctx, run, opts, Load)
}

// Ingest is Load returning the per-sample table.
func (c *Cache) Ingest(ctx context.Context, run *Run, opts IngestOptions) (*Table, bool, error) {
	l, hit, err := c.Load(ctx, run, opts)
	if err != nil {
		return nil, false, err
	}
	return l.Table(), hit, nil
}

// EventsDigest returns the SHA-256 (hex) of the events file at path as
// the cache recorded it when the file was decoded, if the file is
// unchanged since (same identity); it never reads the events file.
func (c *Cache) EventsDigest(path string) (string, bool) { return c.entries().EventsDigest(path) }
