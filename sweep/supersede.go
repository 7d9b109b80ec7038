package sweep

import (
	"context"
	"maps"
	"slices"

	"github.com/steadysweep/steadysweep/sinks"
)

// A resumed sweep keys a row by its run, config and events hash, so a run
// whose log changed since its rows were written gets new rows under the
// new hash. The rows of the old log are then superseded: readers must see
// one row per run × config (and one series per run), describing the log
// as it is now. The worker that hashes the run names the rows it
// supersedes (superseded); the writer collects them; once the sweep's new
// rows are published, they are dropped from the part files this process
// may rewrite (dropSuperseded). An interrupted sweep drops nothing: its
// next resume finds the same old rows beside the new ones and drops them.

// writtenIndex lists, per run id, the row and series keys a resumed sweep
// found in the output directory, with their part files.
type writtenIndex struct {
	rows   map[string][]writtenRow
	series map[string][]writtenSeries
}

type writtenRow struct {
	key  sinks.Key
	file string
}

type writtenSeries struct {
	key  sinks.SeriesKey
	file string
}

// indexWritten builds the index from the states and series read on
// resume.
func indexWritten(states map[sinks.Key]sinks.RowState, series map[sinks.SeriesKey]string) writtenIndex {
	ix := writtenIndex{rows: map[string][]writtenRow{}, series: map[string][]writtenSeries{}}
	for k, st := range states {
		ix.rows[k.RunID] = append(ix.rows[k.RunID], writtenRow{k, st.File})
	}
	for k, f := range series {
		ix.series[k.RunID] = append(ix.series[k.RunID], writtenSeries{k, f})
	}
	return ix
}

// staleOutput is what one run supersedes.
type staleOutput struct {
	rows   []writtenRow
	series []writtenSeries
}

// superseded lists the written rows of run runID under this sweep's
// configs, and its written series when withSeries, whose events hash is
// not sha: the run now has (or gets in this sweep) a row under sha for
// each of those configs, which replaces them.
func (e *engine) superseded(runID, sha string, withSeries bool) staleOutput {
	var s staleOutput
	for _, w := range e.written.rows[runID] {
		if w.key.EventsSHA256 != sha && e.sweeps(w.key.ConfigID) {
			s.rows = append(s.rows, w)
		}
	}
	if withSeries {
		for _, w := range e.written.series[runID] {
			if w.key.EventsSHA256 != sha {
				s.series = append(s.series, w)
			}
		}
	}
	return s
}

// sweeps reports whether configID is one of this sweep's configs.
func (e *engine) sweeps(configID string) bool {
	for _, id := range e.ids {
		if id == configID {
			return true
		}
	}
	return false
}

// staleSet collects, in the writer goroutine, the superseded rows and
// series of the runs written so far, by part file.
type staleSet struct {
	rows   map[string]map[sinks.Key]bool
	series map[string]map[sinks.SeriesKey]bool
}

func (s *staleSet) add(o staleOutput) {
	if len(o.rows)+len(o.series) == 0 {
		return
	}
	if s.rows == nil {
		s.rows, s.series = map[string]map[sinks.Key]bool{}, map[string]map[sinks.SeriesKey]bool{}
	}
	for _, w := range o.rows {
		if s.rows[w.file] == nil {
			s.rows[w.file] = map[sinks.Key]bool{}
		}
		s.rows[w.file][w.key] = true
	}
	for _, w := range o.series {
		if s.series[w.file] == nil {
			s.series[w.file] = map[sinks.SeriesKey]bool{}
		}
		s.series[w.file][w.key] = true
	}
}

// dropSuperseded removes the collected rows and series from the part
// files this process may rewrite and counts in sum the rows dropped and
// those kept because another shard's part files hold them.
func (e *engine) dropSuperseded(ctx context.Context, s *staleSet, sum *Summary) error {
	for _, f := range slices.Sorted(maps.Keys(s.rows)) {
		keys := s.rows[f]
		if !e.mayRewrite(f) {
			sum.SupersededKept += len(keys)
			continue
		}
		n, err := sinks.DropRows(ctx, f, func(k sinks.Key) bool { return keys[k] })
		if err != nil {
			return err
		}
		sum.Superseded += n
	}
	for _, f := range slices.Sorted(maps.Keys(s.series)) {
		keys := s.series[f]
		if !e.mayRewrite(f) {
			continue
		}
		if _, err := sinks.DropSeries(ctx, f, func(k sinks.SeriesKey) bool { return keys[k] }); err != nil {
			return err
		}
	}
	return nil
}
