package htmlpage_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
)

// manyRows is a sweep of n rows (three configs per run) with a
// twelve-super-pass series per run: the shape of issue 30's 27,000-row
// page, scaled down so the test builds it several times in seconds.
func manyRows(n int) *htmlpage.Sweep {
	s := &htmlpage.Sweep{Out: "/tmp/out"}
	for i := range n {
		id := fmt.Sprintf("run%05d", i/3)
		r := sinks.Row{RunID: id, RunRel: "arch/" + id, ConfigID: fmt.Sprintf("c%d", i%3),
			ConfigLabel: fmt.Sprintf("alpha=0.0%d", i%3+1), Provenance: sinks.Provenance{EventsSHA256: "ab"}}
		r.Outcome = core.Outcome{Status: core.StatusWindowable, Verdict: core.VerdictSteadyState, Found: true,
			WindowStartSP: 2, WindowEndSP: 11, SteadyTPOTP50Ns: 1e7 + float64(i), TotalTPOTP50Ns: 1.1e7, SteadyTPSSystem: 2500.5}
		s.Rows = append(s.Rows, r)
		if i%3 == 0 {
			for sp := range 12 {
				s.Series = append(s.Series, sinks.SeriesRow{RunID: id, EventsSHA256: "ab", SuperpassSize: 100, SP: sp,
					TPOTP50Ns: 1e7 + float64(sp)})
			}
		}
	}
	return s
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
