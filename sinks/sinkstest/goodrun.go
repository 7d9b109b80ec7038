package sinkstest

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
)

// goodRunDir is testdata/goodrun relative to the working directory (the
// test's package directory), so the path the run records reads as the
// tests always wrote it: ../../testdata/goodrun from sinks/PKG.
func goodRunDir() string {
	_, here, _, _ := runtime.Caller(0)
	abs := filepath.Join(filepath.Dir(here), "..", "..", "testdata", "goodrun")
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	if rel, err := filepath.Rel(wd, abs); err == nil {
		return rel
	}
	return abs
}

// GoodRun reads the committed run testdata/goodrun (whitespace-word
// counts) into a core.Run; its columns are released when the test ends.
func GoodRun(t testing.TB) *core.Run {
	t.Helper()
	return LoadRun(t, goodRunDir())
}

// LoadRun resolves the run at path and ingests it as analyze does, with
// whitespace-word counts (the parity corpus's counter), into a core.Run;
// its columns are released when the test ends.
func LoadRun(t testing.TB, path string) *core.Run {
	t.Helper()
	table := IngestWords(t, path)
	s := table.Samples()
	return core.NewRun(&s, table.Info)
}

// IngestWords resolves the run at path and ingests it as analyze does,
// with whitespace-word counts; the table is released when the test ends.
func IngestWords(t testing.TB, path string) *columnar.Table {
	t.Helper()
	run, err := columnar.ResolveRun(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	table, err := columnar.Ingest(context.Background(), run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		t.Fatal(err)
	}
	return table
}

// DecodeEvents resolves the endpoints run in dir and decodes its events
// file alone (no cache, no sidecar table) with whitespace-word counts, the
// parity corpus's counter, as the reference's expected outputs were made.
func DecodeEvents(t testing.TB, dir string) (*columnar.Run, *columnar.Decoded) {
	t.Helper()
	run, err := columnar.ResolveRun(context.Background(), dir)
	if err != nil {
		t.Fatalf("resolve %s: %v", dir, err)
	}
	f, err := os.Open(run.EventsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d columnar.Decoded
	if err := columnar.DecodeReader(context.Background(), f, columnar.DecodeOptions{Name: run.EventsPath,
		Counter: tokenizer.Words{}}, &d); err != nil {
		t.Fatalf("decode %s: %v", dir, err)
	}
	return run, &d
}
