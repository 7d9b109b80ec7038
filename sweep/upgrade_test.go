package sweep

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// versionsOf counts the rows of each schema version in OUT/rows and the
// series keys of each in OUT/series.
func versionsOf(t *testing.T, out string) (rows, series map[int32]int) {
	t.Helper()
	st, err := sinks.ReadRowStates(context.Background(), filepath.Join(out, "rows"))
	if err != nil {
		t.Fatal(err)
	}
	sk, err := sinks.ReadSeriesFiles(context.Background(), filepath.Join(out, "series"))
	if err != nil {
		t.Fatal(err)
	}
	return countBy(st, func(k sinks.Key) int32 { return k.SchemaVersion }),
		countBy(sk, func(k sinks.SeriesKey) int32 { return k.SchemaVersion })
}

// countBy counts the keys of m by by(key).
func countBy[K comparable, V any](m map[K]V, by func(K) int32) map[int32]int {
	n := map[int32]int{}
	for k := range m {
		n[by(k)]++
	}
	return n
}

// A resume over part files of schema version 1 says what it does and
// redoes this sweep's rows under the current version, removing their old rows and
// series; old rows outside the sweep (a config not swept now) are kept and
// counted, and redone by a later resume that sweeps them. A directory of
// a newer version is refused with its file named.
func TestResumeOverOlderSchema(t *testing.T) {
	runs, cs := fakeArchive(t), grid3x3(t)[:2]
	out := t.TempDir()
	o := fakeOptions(runs, cs, out)
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	sinkstest.Downgrade(t, filepath.Join(out, "rows"), 1)
	sinkstest.Downgrade(t, filepath.Join(out, "series"), 1)
	if r, s := versionsOf(t, out); r[1] != 36 || s[1] != 18 {
		t.Fatalf("downgraded output: rows %v, series %v", r, s)
	}

	var log bytes.Buffer
	o.Configs, o.Resume, o.Progress = cs[:1], true, NewProgress(&log, false, false)
	sum, err := Run(context.Background(), o)
	if err != nil || sum.Upgraded != 18 || sum.UpgradeKept != 18 || sum.Analysed != 18 || sum.Rows != 18 {
		t.Fatalf("resume over v1, one config: %+v, %v", sum, err)
	}
	if msg := log.String(); !containsAll(msg, "older schema", fmt.Sprintf("writes schema_version %d", sinks.SchemaVersion), "redoing 18 of them", "18 kept", "union_by_name") {
		t.Errorf("the resume does not say what it does: %q", msg)
	}
	if r, s := versionsOf(t, out); r[1] != 18 || r[sinks.SchemaVersion] != 18 || s[1] != 0 || s[sinks.SchemaVersion] != 18 {
		t.Fatalf("after the partial upgrade: rows %v, series %v; want 18 v1 rows kept, 18 of version %d and all series", r, s, sinks.SchemaVersion)
	}

	log.Reset()
	o.Configs = cs
	if sum, err := Run(context.Background(), o); err != nil || sum.Upgraded != 18 || sum.UpgradeKept != 0 || sum.Rows != 18 || sum.Skipped != 0 {
		t.Fatalf("resume over the rest: %+v, %v", sum, err)
	}
	if strings.Contains(log.String(), "kept") {
		t.Errorf("nothing was kept, yet: %q", log.String())
	}
	rows := readRows(t, filepath.Join(out, "rows"), memory.DefaultAllocator) // every file of the current schema again
	if got, want := pairs(t, rows), expectedPairs(runs, cs); !slices.Equal(got, want) {
		t.Fatalf("after the upgrade: %d rows, not runs × configs once each", len(rows))
	}
	if sum, err := Run(context.Background(), o); err != nil || sum.Rows != 0 || sum.Upgraded != 0 || sum.Skipped != 18 {
		t.Fatalf("a further resume: %+v, %v; want nothing redone", sum, err)
	}

	sinkstest.Downgrade(t, filepath.Join(out, "rows"), sinks.SchemaVersion+1)
	_, err = Run(context.Background(), o)
	if err == nil || !containsAll(err.Error(), "newer than this steadysweep's", filepath.Join(out, "rows")) {
		t.Fatalf("resume over a newer schema: %v", err)
	}
}
