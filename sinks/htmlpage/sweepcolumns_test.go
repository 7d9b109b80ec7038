package htmlpage

import (
	"testing"

	"github.com/steadysweep/steadysweep/sinks"
)

// TestSweepPageColumnNames: every column the sweep page asks a row or a
// series row about by name (whether an older part file has it: Row.Has,
// the filters, the missing-column note) is a column of the rows or series
// schema, so a renamed column cannot silently read as absent.
func TestSweepPageColumnNames(t *testing.T) {
	rows, series := map[string]bool{}, map[string]bool{}
	for _, c := range sinks.RowsColumns() {
		rows[c.Name] = true
	}
	for _, c := range sinks.SeriesColumns() {
		series[c.Name] = true
	}
	asked := []string{"superpass_size_used", "failed_frac", "n_failed", "model", "config_label", "preset", "load_pattern", "concurrency"}
	for _, f := range filterColumns {
		asked = append(asked, f.col)
	}
	asked = append(asked, sinks.StopColumns...)
	for _, c := range asked {
		if !rows[c] {
			t.Errorf("the sweep page asks rows for %q, not a rows column", c)
		}
	}
	for _, c := range []string{"sp", "tpot_p50_ns"} {
		if !series[c] {
			t.Errorf("the sweep page asks series for %q, not a series column", c)
		}
	}
}
