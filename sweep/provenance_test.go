package sweep

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// rowHashes reads the events_sha256 of every row under out/rows.
func rowHashes(t *testing.T, out string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(out, "rows", "*.parquet"))
	got := map[string]string{}
	for _, f := range files {
		sinkstest.EachRecord(t, []string{f}, memory.DefaultAllocator, func(_ string, rec arrow.RecordBatch) {
			col := func(name string) *array.String { return rec.Column(rec.Schema().FieldIndices(name)[0]).(*array.String) }
			id, sha := col("run_id"), col("events_sha256")
			for i := range int(rec.NumRows()) {
				got[id.Value(i)] = sha.Value(i)
			}
		})
	}
	return got
}

// TestProvenanceTakesTheLoadersHash: a loader that hashed the events file
// while reading it (or had the hash from the column cache) is not
// followed by a second read of the file: the rows carry the loader's
// hash. (A marker hash proves it: a re-hash would give the file's.) A
// loader without one, and a resume that must match written rows, read
// the file for its true hash.
func TestProvenanceTakesTheLoadersHash(t *testing.T) {
	runs, cs := fakeArchive(t), grid3x3(t)[:2]
	marker := strings.Repeat("ab", 32)
	out := t.TempDir()
	o := fakeOptions(runs, cs, out)
	base := o.Load
	o.Load = func(ctx context.Context, ref corpora.RunRef) (*LoadedRun, error) {
		r, err := base(ctx, ref)
		if err == nil {
			r.EventsSHA256 = marker
		}
		return r, err
	}
	o.Series = nil
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	got := rowHashes(t, out)
	if len(got) != len(runs) {
		t.Fatalf("%d runs in rows, want %d", len(got), len(runs))
	}
	for id, sha := range got {
		if sha != marker {
			t.Fatalf("run %s: events_sha256 %s, want the loader's %s (the file was hashed again)", id, sha, marker)
		}
	}

	trueHash := func(ref corpora.RunRef) string {
		b, err := os.ReadFile(ref.EventsPath)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:])
	}
	out2 := t.TempDir()
	o2 := fakeOptions(runs, cs, out2)
	o2.Series = nil
	if _, err := Run(context.Background(), o2); err != nil {
		t.Fatal(err)
	}
	got2 := rowHashes(t, out2)
	for _, ref := range runs {
		if got2[ref.RunID()] != trueHash(ref) {
			t.Fatalf("run %s without a loader hash: %s, want the file's %s", ref.RunID(), got2[ref.RunID()], trueHash(ref))
		}
	}
	// Resume over out2 with the marker loader: the done rows are keyed by
	// the true hash, which the resume must read to skip them.
	o2.Load, o2.Resume = o.Load, true
	sum, err := Run(context.Background(), o2)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != len(runs) || sum.Analysed != 0 {
		t.Fatalf("resume: %+v, want every run skipped", sum)
	}
}
