package sinks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// publishedPart matches finished part files (temporaries excluded).
var publishedPart = regexp.MustCompile(`^part-.+-\d+\.parquet$`)

// PartFiles lists the published part files of a table directory, sorted.
// A missing directory has none.
func PartFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && publishedPart.MatchString(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// ReadKeys returns the resume keys of every row in the published part
// files of dir (OUT/rows), reading only the four key columns.
func ReadKeys(ctx context.Context, dir string, mem memory.Allocator) (map[Key]struct{}, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	files, err := PartFiles(dir)
	if err != nil {
		return nil, err
	}
	keys := map[Key]struct{}{}
	for _, path := range files {
		if err := readKeysFile(ctx, path, mem, keys); err != nil {
			return nil, fmt.Errorf("read resume keys from %s: %w", path, err)
		}
	}
	return keys, nil
}

func readKeysFile(ctx context.Context, path string, mem memory.Allocator, keys map[Key]struct{}) (err error) {
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, pf.Close()) }()
	names := []string{"run_id", "config_id", "events_sha256", "schema_version"}
	idx := make([]int, len(names))
	for i, n := range names {
		if idx[i] = pf.MetaData().Schema.ColumnIndexByName(n); idx[i] < 0 {
			return fmt.Errorf("no column %q: not a steadysweep rows file", n)
		}
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 64 << 10}, mem)
	if err != nil {
		return err
	}
	rr, err := fr.GetRecordReader(ctx, idx, nil)
	if err != nil {
		return err
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		run, ok1 := rec.Column(0).(*array.String)
		cfg, ok2 := rec.Column(1).(*array.String)
		sha, ok3 := rec.Column(2).(*array.String)
		ver, ok4 := rec.Column(3).(*array.Int32)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return fmt.Errorf("key columns have unexpected types %s", rec.Schema())
		}
		for i := range int(rec.NumRows()) {
			keys[Key{RunID: run.Value(i), ConfigID: cfg.Value(i), EventsSHA256: sha.Value(i), SchemaVersion: ver.Value(i)}] = struct{}{}
		}
	}
	return rr.Err()
}
