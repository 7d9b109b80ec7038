package sinks_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// analysedRows are the rows and series of runs analysed under the default
// and reference parameters, as a sweep builds them: the committed goodrun
// and, when ../shared is present, three parity runs (a clean ramp, a
// drift and a truncated log); plus an error row (a run that could not be
// read: its counts null) and one with an earliest stop.
func analysedRows(t *testing.T) ([]sinks.Row, []sinks.SeriesRow) {
	t.Helper()
	runs := map[string]*core.Run{"goodrun": sinkstest.GoodRun(t)}
	parity := filepath.Join("..", "..", "shared", "parity", "runs")
	for _, name := range []string{"conc_clean_ramp", "conc_drift_down_maxdur", "conc_truncated"} {
		if _, err := os.Stat(filepath.Join(parity, name)); err != nil {
			t.Logf("%s: %v (the parity corpus is absent: goodrun alone)", name, err)
			continue
		}
		runs[name] = sinkstest.LoadRun(t, filepath.Join(parity, name))
	}
	var rows []sinks.Row
	var series []sinks.SeriesRow
	names := slices.Sorted(maps.Keys(runs))
	for i, name := range names {
		run := runs[name]
		info := run.Info()
		for j, p := range []core.Params{core.DefaultParams(), core.ReferenceParams()} {
			res, err := run.Analyze(p)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rows = append(rows, sinks.Row{RunPath: "/archive/" + name, RunRel: name, RunID: fmt.Sprintf("id%d", i),
				Provenance: sinks.Provenance{EventsPath: "/archive/" + name + "/events.jsonl", EventsSize: int64(1000 + i),
					EventsMtimeNs: 1_700_000_000_000_000_000 + int64(i), EventsSHA256: "sha" + name, ToolVersion: "v1",
					ToolCommit: "c1", Tokenizer: "words", SourceFormat: info.SourceFormat},
				Meta: sinks.RunMeta{Loaded: true, Model: info.Model, TokenizerSource: "words", LoadPattern: info.LoadPattern,
					Concurrency: info.Concurrency, TargetQPS: info.TargetQPS, DatasetName: info.DatasetName,
					DatasetSize: info.DatasetSize, Endpoint: info.Endpoint, NSamples: 500 + i, RunDurationS: 900.25},
				ConfigID: sinks.ConfigID(p), Preset: []string{"default", "reference"}[j], ConfigLabel: string(p.Compat),
				Params: p, Outcome: res.Outcome(), AnalysisNs: int64(1e6 * (i + 1)), IngestNs: int64(2e6 * (i + 1))})
			if j == 0 { // a start on the wall clock (RunStartedNs is meant only with HasStart)
				rows[len(rows)-1].Meta.RunStartedNs, rows[len(rows)-1].Meta.HasStart = 1_700_000_000_000_000_000, true
			}
		}
		if S := info.DatasetSize; S > 0 {
			sps, err := run.SuperPasses(S)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range sps {
				s := sinks.SeriesRowOf(d, S)
				s.RunID, s.EventsSHA256 = fmt.Sprintf("id%d", i), "sha"+name
				series = append(series, s)
			}
		}
	}
	// A row with an earliest stop (sweep.EarliestStop's fields, which a
	// bare analysis leaves unset).
	stop := rows[0]
	stop.RunID, stop.Outcome.StopAtS, stop.Outcome.StopSavedFrac, stop.Outcome.StopSavedS = "stop", 312.5, 0.25, 104.5
	stop.Outcome.StopAgrees, stop.Outcome.DriftingUp = true, []string{"tpot_p50", "ttft_p50"}
	// An error row: nothing read, every count null (the failures too).
	bad := rows[0]
	bad.RunID, bad.Meta = "bad", sinks.RunMeta{RunDurationS: math.NaN()}
	bad.Outcome.Status, bad.Outcome.Reason = core.StatusError, "read: no events"
	bad.Outcome.NFailed, bad.Outcome.FailedFrac = 0, math.NaN()
	return append(rows, stop, bad), series
}

// same renders a row for comparison: every field, NaN equal to NaN, the
// reader's own fields (schema version, part file) cleared.
func same[T any](v T, clearRead func(*T)) string {
	clearRead(&v)
	return fmt.Sprintf("%#v", v)
}

// TestReadRowsRoundTrip: rows and series the writers wrote from real
// analyses (goodrun and the parity runs) read back with every field equal
// to the record written, the schema version this binary's and Has true
// for every column.
func TestReadRowsRoundTrip(t *testing.T) {
	rows, series := analysedRows(t)
	if len(series) == 0 {
		t.Fatal("no series rows: the series check is void")
	}
	out := t.TempDir()
	rw, err := sinks.NewRowWriter(sinks.WriterOptions{Dir: filepath.Join(out, "rows"), RowsPerFile: 3, RowsPerGroup: 2})
	if err != nil {
		t.Fatal(err)
	}
	sw, err := sinks.NewSeriesWriter(sinks.WriterOptions{Dir: filepath.Join(out, "series"), RowsPerGroup: 7})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows { // a part file rolls at a Write
		if err := rw.Write(rows[i : i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Write(series); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	if len(rw.Files()) < 2 {
		t.Fatalf("%d rows part files; want several (the reader crosses files)", len(rw.Files()))
	}
	clearRow := func(r *sinks.Row) { r.SchemaVersion, r.Stored = 0, nil }
	var got []sinks.Row
	for r, err := range sinks.ReadRows(context.Background(), filepath.Join(out, "rows"), sinks.ReadOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if r.SchemaVersion != sinks.SchemaVersion || r.Stored == nil || !slices.Contains(rw.Files(), r.Stored.File) {
			t.Errorf("row %s: schema %d, stored %+v", r.RunRel, r.SchemaVersion, r.Stored)
		}
		for _, c := range sinks.RowsColumns() {
			if !r.Has(c.Name) {
				t.Errorf("row %s: column %s not had", r.RunRel, c.Name)
			}
		}
		got = append(got, r)
	}
	if len(got) != len(rows) {
		t.Fatalf("read %d rows, wrote %d", len(got), len(rows))
	}
	for i := range rows {
		if g, w := same(got[i], clearRow), same(rows[i], clearRow); g != w {
			t.Errorf("row %d (%s) differs read back:\n got %s\nwant %s", i, rows[i].RunRel, g, w)
		}
	}
	clearSeries := func(s *sinks.SeriesRow) { s.SchemaVersion, s.Stored = 0, nil }
	i := 0
	for s, err := range sinks.ReadSeries(context.Background(), filepath.Join(out, "series"), sinks.ReadOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if i >= len(series) {
			t.Fatalf("more series rows read than the %d written", len(series))
		}
		if g, w := same(s, clearSeries), same(series[i], clearSeries); g != w {
			t.Errorf("series row %d differs read back:\n got %s\nwant %s", i, g, w)
		}
		i++
	}
	if i != len(series) {
		t.Errorf("read %d series rows, wrote %d", i, len(series))
	}
}

// TestReadRowsOlderSchema: part files rewritten as schema version 1 wrote
// them (sinkstest.Downgrade: without the columns versions 2 on added)
// read with their version, the dropped columns not had and read as null
// (NaN, 0, ""), and every other field as written.
func TestReadRowsOlderSchema(t *testing.T) {
	rows, series := analysedRows(t)
	out := t.TempDir()
	rw, err := sinks.NewRowWriter(sinks.WriterOptions{Dir: filepath.Join(out, "rows")})
	if err != nil {
		t.Fatal(err)
	}
	sw, err := sinks.NewSeriesWriter(sinks.WriterOptions{Dir: filepath.Join(out, "series")})
	if err != nil {
		t.Fatal(err)
	}
	if err := errorsJoin(rw.Write(rows), rw.Close(), sw.Write(series), sw.Close()); err != nil {
		t.Fatal(err)
	}
	sinkstest.Downgrade(t, filepath.Join(out, "rows"), 1)
	sinkstest.Downgrade(t, filepath.Join(out, "series"), 1)
	dropped := sinkstest.ColumnsAddedAfter(1)
	// What a version-1 file keeps of a row: the dropped columns' fields at
	// their null value.
	asV1 := func(r sinks.Row) sinks.Row {
		r.Preset, r.ConfigLabel = "", ""
		r.Meta = sinks.RunMeta{RunDurationS: math.NaN()}
		r.Outcome.NFailed, r.Outcome.FailedFrac = 0, math.NaN()
		r.Outcome.StopAtS, r.Outcome.StopSavedFrac, r.Outcome.StopSavedS, r.Outcome.StopAgrees = math.NaN(), math.NaN(), math.NaN(), false
		return r
	}
	n := 0
	for r, err := range sinks.ReadRows(context.Background(), filepath.Join(out, "rows"), sinks.ReadOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if r.SchemaVersion != 1 {
			t.Errorf("row %s: schema version %d, want 1", r.RunRel, r.SchemaVersion)
		}
		for _, c := range dropped {
			if r.Has(c) {
				t.Errorf("row %s: has %s, which version 1 lacks", r.RunRel, c)
			}
		}
		if !r.Has("run_id") || !r.Has("steady_tpot_p50_ns") {
			t.Errorf("row %s: lacks a version-1 column", r.RunRel)
		}
		clear := func(r *sinks.Row) { r.SchemaVersion, r.Stored = 0, nil }
		if g, w := same(r, clear), same(asV1(rows[n]), clear); g != w {
			t.Errorf("row %d (%s) read from version 1:\n got %s\nwant %s", n, r.RunRel, g, w)
		}
		n++
	}
	if n != len(rows) {
		t.Fatalf("read %d rows, wrote %d", n, len(rows))
	}
	n = 0
	for s, err := range sinks.ReadSeries(context.Background(), filepath.Join(out, "series"), sinks.ReadOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if s.Has("tpot_mean_ns") || !math.IsNaN(s.TPOTMeanNs) || s.SchemaVersion != 1 {
			t.Errorf("series row %d: has tpot_mean_ns %v (%v), version %d; version 1 lacks it", n, s.Has("tpot_mean_ns"), s.TPOTMeanNs, s.SchemaVersion)
		}
		if s.TPOTP50Ns != series[n].TPOTP50Ns && !(math.IsNaN(s.TPOTP50Ns) && math.IsNaN(series[n].TPOTP50Ns)) {
			t.Errorf("series row %d: tpot_p50_ns %v, wrote %v", n, s.TPOTP50Ns, series[n].TPOTP50Ns)
		}
		n++
	}
	if n != len(series) {
		t.Errorf("read %d series rows, wrote %d", n, len(series))
	}
}

// TestReadRowsBadColumn: a part file whose column has another type than
// the writer's is an error naming the file, the row and the column.
func TestReadRowsBadColumn(t *testing.T) {
	dir := t.TempDir()
	writeStrings(t, filepath.Join(dir, "part-0of1-000000.parquet"), map[string]string{
		"run_id": "a", "config_id": "c", "events_sha256": "s", "found": "yes"})
	var err error
	for _, err = range sinks.ReadRows(context.Background(), dir, sinks.ReadOptions{}) {
		if err != nil {
			break
		}
	}
	if err == nil || !strings.Contains(err.Error(), "part-0of1-000000.parquet: row 0: column found") {
		t.Errorf("err = %v; want one naming the file, row 0 and column found", err)
	}
}

// writeStrings writes a one-row part file of the given string columns and
// schema_version 4.
func writeStrings(t *testing.T, path string, cols map[string]string) {
	t.Helper()
	fields := []batch.Field{{Name: "schema_version", Type: batch.Int32}}
	ib := batch.NewColumn(batch.Int32)
	ib.AppendInt32(4)
	arrays := []*batch.Column{ib}
	for _, name := range slices.Sorted(maps.Keys(cols)) {
		sb := batch.NewColumn(batch.String)
		sb.AppendString(cols[name])
		fields, arrays = append(fields, batch.Field{Name: name, Type: batch.String}), append(arrays, sb)
	}
	rec, err := batch.NewBatch(batch.NewSchema(fields, nil), arrays)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := errorsJoin(parquetio.WriteRecord(&buf, rec, nil), os.WriteFile(path, buf.Bytes(), 0o644)); err != nil {
		t.Fatal(err)
	}
}

func errorsJoin(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
