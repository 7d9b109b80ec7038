package htmlpage

import "github.com/steadysweep/steadysweep/internal/pyjson"

// A sweep page of tens of thousands of rows takes seconds to build (the
// record, the view, the JSON, the page), and SIGINT/SIGTERM must end
// it within a second with no page written. The page builders poll a Stop
// function (SweepOptions.Stop: the command's context error) every
// checkEvery units of work — rows of the record and the view, rows of the
// JSON, rows of the page — and return its error: the caller's
// atomic writer then publishes nothing.

// checkEvery is how many units of work pass between two polls of Stop:
// a row costs microseconds, so 256 keep a poll well under a millisecond
// apart while the polls stay negligible.
const checkEvery = 256

// stopper polls stop (nil: never stopped) and remembers its first error.
type stopper struct {
	stop func() error
	n    int
	err  error
	// polls counts the calls of stop (tests).
	polls int
}

// poll counts one unit of work and polls stop every checkEvery units.
func (s *stopper) poll() error {
	if s.err != nil || s.stop == nil {
		return s.err
	}
	if s.n++; s.n%checkEvery != 0 {
		return nil
	}
	return s.now()
}

// now polls stop at once.
func (s *stopper) now() error {
	if s.err != nil || s.stop == nil {
		return s.err
	}
	s.polls++
	s.err = s.stop()
	return s.err
}

// stoppingRow is a row of the page's record that polls the stopper as
// the JSON encoder reaches it; once stopped, the rows left are written as
// null (cheap: the page is then discarded).
type stoppingRow struct {
	v any
	s *stopper
}

func (r stoppingRow) PyJSON() any {
	if r.s.poll() != nil {
		return nil
	}
	return r.v
}

// stoppingRecord is rec with the elements of its list key wrapped in
// stoppingRow, for the JSON encoder (the view reads rec itself).
func stoppingRecord(rec pyjson.Object, key string, s *stopper) pyjson.Object {
	i := rec.Index(key)
	if i < 0 || s.stop == nil {
		return rec
	}
	rows, ok := rec[i].Value.([]any)
	if !ok {
		return rec
	}
	wrapped := make([]any, len(rows))
	for j, r := range rows {
		wrapped[j] = stoppingRow{r, s}
	}
	out := append(pyjson.Object(nil), rec...)
	out[i].Value = wrapped
	return out
}
