package htmlpage

import "path/filepath"

// RunPageByTemplates is the run page of in as the old templates
// (templates_test.go) drew it, its data element empty.
func RunPageByTemplates(in RunInput) ([]byte, error) {
	rec, err := newRunRecord(in)
	if err != nil {
		return nil, err
	}
	v := runViewOf(rec)
	v.Back = in.Back
	return oldRender("run", "steadysweep · "+v.Name, v)
}

// SweepPageByTemplates is the sweep page of s as the old templates drew
// it, its data element empty.
func SweepPageByTemplates(s *Sweep, o SweepOptions) ([]byte, error) {
	cols := presentColumns(s.Rows)
	series, err := seriesRuns(s.Series, &stopper{})
	if err != nil {
		return nil, err
	}
	v, err := sweepViewOf(s.Rows, cols, series, s.Out, o, &stopper{})
	if err != nil {
		return nil, err
	}
	return oldRender("sweep", "steadysweep sweep · "+filepath.Base(filepath.Clean(s.Out)), v)
}
