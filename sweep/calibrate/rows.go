package calibrate

import (
	"context"
	"fmt"
	"math"

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
	// HasStopColumns reports that the rows file has the stop columns
	// (sinks.HasStopColumns: schema 4 on): then Model, Concurrency (0: null), RunDurationS and
	// StopSavedS (NaN: null) and StopAgrees are read.
	HasStopColumns           bool
	Model                    string
	Concurrency              int
	RunDurationS, StopSavedS float64
	StopAgrees               bool
}

// readRows reads every row of the published part files under dir
// (OUT/rows) through the rows reader (sinks.ReadRows).
func readRows(ctx context.Context, dir string) ([]row, error) {
	files, err := sinks.PartFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no part files in %s: not a sweep output directory, or the sweep wrote nothing", dir)
	}
	var rows []row
	for r, err := range sinks.ReadRows(ctx, dir, sinks.ReadOptions{}) {
		if err != nil {
			return nil, fmt.Errorf("read rows: %w", err)
		}
		rows = append(rows, rowOf(&r))
	}
	return rows, nil
}

// rowOf is what calibration takes of a row read back. A parameter whose
// column the row's file lacks (added later) has no text.
func rowOf(r *sinks.Row) row {
	o := &r.Outcome
	rw := row{RunPath: r.RunPath, RunID: r.RunID, ConfigID: r.ConfigID,
		Status: string(o.Status), Verdict: string(o.Verdict), Reason: o.Reason, Found: o.Found,
		WindowStart: o.WindowStartSP, WindowEnd: o.WindowEndSP, SuperpassSize: max(o.SuperpassSize, 0),
		TPOTP50Ns: o.SteadyTPOTP50Ns, Shift: o.AnomalyDetected, Params: map[string]string{},
		RunDurationS: math.NaN(), StopSavedS: math.NaN()}
	names := core.Names()
	for i, text := range r.Params.Texts() {
		if name := names[i]; r.Has(name) {
			rw.Params[name] = text
		}
	}
	if rw.HasStopColumns = sinks.HasStopColumns(r); rw.HasStopColumns {
		rw.Model, rw.Concurrency = r.Meta.Model, r.Meta.Concurrency
		rw.RunDurationS, rw.StopSavedS, rw.StopAgrees = r.Meta.RunDurationS, o.StopSavedS, o.StopAgrees
	}
	return rw
}
