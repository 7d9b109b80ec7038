package core

import (
	"errors"
	"fmt"
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
