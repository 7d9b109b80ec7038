package htmlpage_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/steadysweep/steadysweep/sinks/htmlpage"
)

// manyRows is a sweep of n rows (three configs per run) with a
// twelve-super-pass series per run: the shape of issue 30's 27,000-row
// page, scaled down so the test builds it several times in seconds.
func manyRows(n int) *htmlpage.Sweep {
	cols := []string{"run_id", "run_rel", "config_id", "config_label", "status", "verdict", "reason", "events_sha256",
		"found", "window_start_sp", "window_end_sp", "steady_tpot_p50_ns", "total_tpot_p50_ns", "steady_tps_system"}
	rows := &htmlpage.Table{Columns: cols}
	series := &htmlpage.Table{Columns: []string{"run_id", "events_sha256", "superpass_size", "sp", "tpot_p50_ns"}}
	for i := range n {
		id := fmt.Sprintf("run%05d", i/3)
		rows.Rows = append(rows.Rows, map[string]any{"run_id": id, "run_rel": "arch/" + id, "config_id": fmt.Sprintf("c%d", i%3),
			"config_label": fmt.Sprintf("alpha=0.0%d", i%3+1), "status": "windowable", "verdict": "STEADY STATE", "reason": "",
			"events_sha256": "ab", "found": true, "window_start_sp": int64(2), "window_end_sp": int64(11),
			"steady_tpot_p50_ns": 1e7 + float64(i), "total_tpot_p50_ns": 1.1e7, "steady_tps_system": 2500.5})
		if i%3 == 0 {
			for sp := range 12 {
				series.Rows = append(series.Rows, map[string]any{"run_id": id, "events_sha256": "ab", "superpass_size": int64(100),
					"sp": int64(sp), "tpot_p50_ns": 1e7 + float64(sp)})
			}
		}
	}
	return &htmlpage.Sweep{Out: "/tmp/out", Rows: rows, Series: series}
}

// TestWriteSweepStops is issue 30's "report / sweep --html of 27,000 rows
// never checks [the signal] (SIGTERM → exit 0 seconds later, the page
// written anyway)". Counted, not timed: a page of n rows polls Stop at
// least once per 256 rows in each of its four row passes (record, view,
// JSON, template), so the work between two polls is bounded whatever n;
// polling leaves the page byte for byte as without it; and a Stop that
// fails at any of its polls — the first, a quarter, half, three quarters
// in, the last — ends WriteSweep with that error at once (Stop is not
// called again) and nothing written.
func TestWriteSweepStops(t *testing.T) {
	const n = 2000
	s := manyRows(n)
	var plain bytes.Buffer
	if err := htmlpage.WriteSweep(&plain, s, htmlpage.SweepOptions{}); err != nil {
		t.Fatal(err)
	}
	polls := 0
	var polled bytes.Buffer
	if err := htmlpage.WriteSweep(&polled, s, htmlpage.SweepOptions{Stop: func() error { polls++; return nil }}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain.Bytes(), polled.Bytes()) {
		t.Fatalf("the page differs when Stop is polled (%d vs %d bytes)", polled.Len(), plain.Len())
	}
	if min := 4 * n / 256; polls < min {
		t.Fatalf("Stop polled %d times for %d rows, want at least %d (once per 256 rows of each pass)", polls, n, min)
	}
	stopped := errors.New("SIGTERM")
	for _, at := range []int{1, polls / 4, polls / 2, 3 * polls / 4, polls} {
		calls := 0
		var w bytes.Buffer
		err := htmlpage.WriteSweep(&w, s, htmlpage.SweepOptions{Stop: func() error {
			if calls++; calls >= at {
				return stopped
			}
			return nil
		}})
		if !errors.Is(err, stopped) {
			t.Fatalf("stopped at poll %d of %d: WriteSweep returned %v", at, polls, err)
		}
		if calls != at || w.Len() != 0 {
			t.Fatalf("stopped at poll %d of %d: Stop called %d times, %d bytes written; want it not called again and nothing written", at, polls, calls, w.Len())
		}
	}
}
