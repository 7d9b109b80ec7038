package core

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// TestStopHook: Run.Stop is polled during the work (the plateau scans and
// the diagnostic tables poll per step); once it fails, Analyze and Diagnostics return its error,
// and a run stopped midway analyses afterwards exactly as a fresh one (a
// stop leaves no partial statistic in the memos).
func TestStopHook(t *testing.T) {
	s := syntheticSamples(60, 150)
	info := RunInfo{DatasetSize: 150}
	for _, p := range []Params{DefaultParams(), ReferenceParams()} {
		polls := 0
		counting := NewRun(s, info)
		counting.Stop = func() error { polls++; return nil }
		if _, err := counting.Analyze(p); err != nil {
			t.Fatal(err)
		}
		if polls < 3 { // at least: the plateau scan, the stage boundaries
			t.Errorf("%s: Stop polled %d times in a 60-super-pass analysis", p.Compat, polls)
		}
		errStop := errors.New("interrupted")
		for _, after := range []int{0, 1, polls / 2, polls - 1} {
			run := NewRun(s, info)
			n := 0
			run.Stop = func() error {
				if n++; n > after {
					return errStop
				}
				return nil
			}
			if r, err := run.Analyze(p); !errors.Is(err, errStop) || r != nil {
				t.Errorf("%s: stop after %d polls: result %v, err %v", p.Compat, after, r != nil, err)
			}
			run.Stop = nil
			got, err := run.Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := NewRun(s, info).Analyze(p)
			if g, w := fmt.Sprintf("%+v", got.Outcome()), fmt.Sprintf("%+v", want.Outcome()); g != w {
				t.Errorf("%s: after a stop at poll %d:\n%s\nfresh:\n%s", p.Compat, after, g, w)
			}
		}
	}

	run := NewRun(s, info)
	r, err := run.Analyze(ReferenceParams())
	if err != nil {
		t.Fatal(err)
	}
	errStop := errors.New("interrupted")
	run.Stop = func() error { return errStop }
	if d, err := r.Diagnostics(); !errors.Is(err, errStop) || d != nil {
		t.Errorf("Diagnostics under a failing Stop: %d tables, err %v", len(d), err)
	}
	run.Stop = nil
	if d, err := r.Diagnostics(); err != nil || len(d) != 3 {
		t.Errorf("Diagnostics after the stop: %d tables, err %v", len(d), err)
	}
}

// TestStopDuringOneLongPlateau: one start of the plateau scan can grow
// over the whole series, each step an O(window) admissibility test (at
// --superpass-size 1 on 360,000 samples the scan ran for minutes with the
// hook never polled, so SIGTERM waited for it). The scan must look at the
// hook every 64 steps or fewer, and stop at the first failure.
func TestStopDuringOneLongPlateau(t *testing.T) {
	const n = 10000
	calls, lastPoll, maxGap := 0, 0, 0
	stopAt := -1
	st := &stopper{fn: func() error {
		maxGap = max(maxGap, calls-lastPoll)
		lastPoll = calls
		if stopAt >= 0 && calls >= stopAt {
			return errors.New("interrupted")
		}
		return nil
	}}
	admissible := func(lo, hi int) bool { calls++; return true }
	if got := growPlateaus(n, 4, admissible, st); len(got) != 1 || got[0] != (Plateau{0, n}) {
		t.Fatalf("plateaus %v, want one over [0, %d)", got, n)
	}
	if maxGap = max(maxGap, calls-lastPoll); maxGap > 64 {
		t.Errorf("%d admissibility tests between two polls of Stop, want ≤ 64", maxGap)
	}
	calls, lastPoll, stopAt = 0, 0, 500
	st = &stopper{fn: st.fn}
	growPlateaus(n, 4, admissible, st)
	if st.err == nil || calls > stopAt+64 {
		t.Errorf("stop at %d tests: scan ran %d tests (err %v)", stopAt, calls, st.err)
	}
}

// TestStopDuringSegmentSSE: the drift test's k-segment table is O(k·n²)
// with n the plateaus' super-passes (100,000 at --superpass-size 1: the
// analysis sat in it for minutes after SIGTERM). It must poll Stop every
// 64 rows and give up (NaN) at the first failure, and without a stop it
// must still be the exact least SSE (checked on a small series by hand:
// [1 1 5 5 9] in 3 segments is 0).
func TestStopDuringSegmentSSE(t *testing.T) {
	if got := segmentSSE([]float64{1, 1, 5, 5, 9}, 3, 1, nil); got != 0 {
		t.Errorf("segmentSSE of three levels in 3 segments = %v, want 0", got)
	}
	ys := make([]float64, 4096)
	for i := range ys {
		ys[i] = float64(i % 7)
	}
	polls := 0
	st := &stopper{fn: func() error {
		if polls++; polls > 3 {
			return errors.New("interrupted")
		}
		return nil
	}}
	if got := segmentSSE(ys, 4, 1, st); !math.IsNaN(got) || polls != 4 {
		t.Errorf("stopped at the 4th poll: %v after %d polls, want NaN after 4", got, polls)
	}
}
