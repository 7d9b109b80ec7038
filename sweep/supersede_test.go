package sweep

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestResumeReplacesRowsOfAChangedLog: issue 30's case — two runs × one
// config swept, one run's log rewritten, then --resume. The old code
// wrote the changed run's new row beside its stale one (3 rows); a
// changed log must replace its rows, so the output holds one row and one
// series per run × config, the changed run's row carrying the new log's
// hash (read from the file by the test) and the summary saying one row
// was replaced. A further resume changes nothing.
func TestResumeReplacesRowsOfAChangedLog(t *testing.T) {
	mem := checkedMem(t)
	runs, cs := fakeArchive(t)[:2], grid3x3(t)[:1]
	out := t.TempDir()
	o := fakeOptions(runs, cs, out)
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	before := rowHashes(t, out)

	changed := runs[1]
	if err := os.WriteFile(changed.EventsPath, []byte(`{"event_type":"session.started","n":"rewritten"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.Resume = true
	sum, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Analysed != 1 || sum.Skipped != 1 || sum.Rows != 1 || sum.Superseded != 1 {
		t.Fatalf("resume after a log changed: %+v; want the changed run redone and its old row replaced", sum)
	}
	if !strings.Contains(sum.String(), "1 row of changed logs replaced") {
		t.Errorf("summary %q does not say a row was replaced", sum.String())
	}
	rows := readRows(t, filepath.Join(out, "rows"), mem)
	if got, want := pairs(t, rows), expectedPairs(runs, cs); !slices.Equal(got, want) {
		t.Fatalf("%d rows after the resume, want one per run × config (%d)", len(rows), len(want))
	}
	after := rowHashes(t, out)
	if after[runs[0].RunID()] != before[runs[0].RunID()] {
		t.Errorf("the unchanged run's row changed hash")
	}
	prov, err := fileProvenance(changed.EventsPath)
	if err != nil {
		t.Fatal(err)
	}
	if after[changed.RunID()] != prov.EventsSHA256 || prov.EventsSHA256 == before[changed.RunID()] {
		t.Errorf("changed run: row hash %s, want the new log's %s (old %s)", after[changed.RunID()], prov.EventsSHA256, before[changed.RunID()])
	}
	seriesHashes := map[string]map[string]bool{}
	eachRecord(t, filepath.Join(out, "series"), mem, func(_ string, rec arrow.RecordBatch) {
		col := func(name string) *array.String { return rec.Column(rec.Schema().FieldIndices(name)[0]).(*array.String) }
		id, sha := col("run_id"), col("events_sha256")
		for i := range int(rec.NumRows()) {
			if seriesHashes[id.Value(i)] == nil {
				seriesHashes[id.Value(i)] = map[string]bool{}
			}
			seriesHashes[id.Value(i)][sha.Value(i)] = true
		}
	})
	if got := seriesHashes[changed.RunID()]; len(got) != 1 || !got[prov.EventsSHA256] {
		t.Errorf("changed run's series under hashes %v, want only the new log's", got)
	}

	sum, err = Run(context.Background(), o)
	if err != nil || sum.Rows != 0 || sum.Skipped != 2 || sum.Superseded != 0 {
		t.Fatalf("second resume: %+v, %v; want nothing to do", sum, err)
	}
}
