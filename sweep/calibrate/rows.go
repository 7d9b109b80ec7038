package calibrate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// row is what calibration needs of one sweep row.
type row struct {
	RunPath, RunID, ConfigID string
	Status, Verdict, Reason  string
	Found                    bool
	// WindowStart and WindowEnd are absolute super-pass indices (end
	// inclusive), −1 when the row has no window.
	WindowStart, WindowEnd int
	// SuperpassSize is superpass_size_used (0 when unknown).
	SuperpassSize int
	// TPOTP50Ns is steady_tpot_p50_ns, NaN when null.
	TPOTP50Ns float64
	// Shift is anomaly_detected: the row reports a level shift (false
	// when the column is absent or null).
	Shift bool
	// Params are the parameter columns as text, by core.Names() name.
	Params map[string]string
}

// rowColumns are the non-parameter columns calibration reads.
var rowColumns = []string{"run_path", "run_id", "config_id", "status", "verdict", "reason", "found",
	"window_start_sp", "window_end_sp", "superpass_size_used", "steady_tpot_p50_ns"}

// optionalColumns are read when present (older rows files lack them).
var optionalColumns = []string{"anomaly_detected"}

// readRows reads every row of the published part files under dir
// (OUT/rows).
func readRows(ctx context.Context, dir string, mem memory.Allocator) ([]row, error) {
	files, err := sinks.PartFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no part files in %s: not a sweep output directory, or the sweep wrote nothing", dir)
	}
	var rows []row
	for _, path := range files {
		if rows, err = readRowsFile(ctx, path, mem, rows); err != nil {
			return nil, fmt.Errorf("read rows: %w", err)
		}
	}
	return rows, nil
}

// readRowsFile appends the rows of one part file; its errors name it.
func readRowsFile(ctx context.Context, path string, mem memory.Allocator, rows []row) (_ []row, err error) {
	r, err := parquetio.Open(path, mem)
	if err != nil {
		return rows, err
	}
	defer func() { err = errors.Join(err, r.Close()) }()
	names := append(append(append([]string(nil), rowColumns...), core.Names()...), optionalColumns...)
	var idx []int
	var present []string
	for i, n := range names {
		j := r.ColumnIndex(n)
		if j < 0 {
			if i < len(rowColumns) {
				return rows, fmt.Errorf("%s: no column %q: not a steadysweep rows file", path, n)
			}
			continue // a parameter added after this file was written
		}
		idx, present = append(idx, j), append(present, n)
	}
	err = r.Each(ctx, idx, 16<<10, func(rec arrow.RecordBatch) error {
		cols := map[string]arrow.Array{}
		for i, n := range present {
			cols[n] = rec.Column(i)
		}
		for i := range int(rec.NumRows()) {
			rw, err := rowAt(cols, present[len(rowColumns):], i)
			if err != nil {
				return fmt.Errorf("%s: row %d: %w", path, len(rows), err)
			}
			rows = append(rows, rw)
		}
		return nil
	})
	return rows, err
}

// rowAt decodes row i of the record's columns.
func rowAt(cols map[string]arrow.Array, params []string, i int) (row, error) {
	r := row{Params: make(map[string]string, len(params)), TPOTP50Ns: math.NaN()}
	var err error
	str := func(n string) string {
		s, _, e := cellText(cols[n], i)
		err = errors.Join(err, e)
		return s
	}
	r.RunPath, r.RunID, r.ConfigID = str("run_path"), str("run_id"), str("config_id")
	r.Status, r.Verdict, r.Reason = str("status"), str("verdict"), str("reason")
	r.Found = str("found") == "true"
	r.WindowStart, r.WindowEnd = spCell(cols["window_start_sp"], i), spCell(cols["window_end_sp"], i)
	r.SuperpassSize = max(spCell(cols["superpass_size_used"], i), 0)
	if a, ok := cols["steady_tpot_p50_ns"].(*array.Float64); ok && a.IsValid(i) {
		r.TPOTP50Ns = a.Value(i)
	}
	for _, n := range params {
		if slices.Contains(optionalColumns, n) {
			continue
		}
		r.Params[n] = str(n)
	}
	r.Shift = cols["anomaly_detected"] != nil && str("anomaly_detected") == "true"
	return r, err
}

// spCell reads an integer super-pass column, −1 when null.
func spCell(a arrow.Array, i int) int {
	switch a := a.(type) {
	case *array.Int64:
		if a.IsValid(i) {
			return int(a.Value(i))
		}
	case *array.Int32:
		if a.IsValid(i) {
			return int(a.Value(i))
		}
	}
	return -1
}

// cellText renders cell i of a as text: strings as they are (dictionary
// columns through their dictionary), numbers in Go's shortest form,
// booleans as true/false; valid is false for a null.
func cellText(a arrow.Array, i int) (s string, valid bool, err error) {
	if a == nil || a.IsNull(i) {
		return "", false, nil
	}
	switch a := a.(type) {
	case *array.String:
		return a.Value(i), true, nil
	case *array.LargeString:
		return a.Value(i), true, nil
	case *array.Dictionary:
		return cellText(a.Dictionary(), a.GetValueIndex(i))
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10), true, nil
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10), true, nil
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64), true, nil
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i)), true, nil
	}
	return "", false, fmt.Errorf("column of type %s is not readable as text", a.DataType())
}
