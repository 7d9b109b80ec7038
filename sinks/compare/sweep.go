package compare

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/steadysweep/steadysweep/sinks"
)

// PairKey identifies a row across two sweeps: the same run (run_id, the
// hash of its path relative to the sweep root) under the same parameter
// set.
type PairKey struct{ RunID, ConfigID string }

// SweepSide is a sweep output read for comparing: one Side per row.
type SweepSide struct {
	Dir  string
	Rows map[PairKey]Side
	// RunRel and ConfigLabel name each key.
	RunRel, ConfigLabel map[PairKey]string
}

// IsSweepOutput reports whether dir holds a sweep's rows (OUT/rows part
// files).
func IsSweepOutput(dir string) bool {
	files, err := sinks.PartFiles(filepath.Join(dir, "rows"))
	return err == nil && len(files) > 0
}

// ReadSweep reads the rows and series of the sweep output dir. Part files
// of older schemas are read too: a column they lack reads as null (and the
// metrics needing it cannot be compared). Where one key has rows of
// several schema versions, the newest is kept.
func ReadSweep(ctx context.Context, dir string) (*SweepSide, error) {
	series, err := readSeries(ctx, filepath.Join(dir, "series"))
	if err != nil {
		return nil, err
	}
	if files, err := sinks.PartFiles(filepath.Join(dir, "rows")); err != nil {
		return nil, err
	} else if len(files) == 0 {
		return nil, fmt.Errorf("%s: no rows part files: not a sweep output directory", dir)
	}
	s := &SweepSide{Dir: dir, Rows: map[PairKey]Side{}, RunRel: map[PairKey]string{}, ConfigLabel: map[PairKey]string{}}
	version := map[PairKey]int32{}
	for r, err := range sinks.ReadRows(ctx, filepath.Join(dir, "rows"), sinks.ReadOptions{}) {
		if err != nil {
			return nil, err // it names the file
		}
		k := PairKey{r.RunID, r.ConfigID}
		if r.SchemaVersion < version[k] {
			continue
		}
		version[k] = r.SchemaVersion
		ser := series[seriesKey{k.RunID, r.Provenance.EventsSHA256}]
		if ser == nil { // a run that failed (error rows) has no series
			ser = &runSeries{}
		}
		side := sideOf(r.RunRel, r.ConfigLabel, &r.Outcome, ser.rows, ser.size)
		side.ConfigID = k.ConfigID
		if side.BatchNote == "" && len(ser.rows) > 0 && !ser.hasTPOTMean {
			side.noTPOTMean = true
		}
		s.Rows[k], s.RunRel[k], s.ConfigLabel[k] = side, r.RunRel, r.ConfigLabel
	}
	return s, nil
}

type seriesKey struct{ RunID, EventsSHA256 string }

// runSeries is one run's series rows (sp order), their super-pass size,
// and whether the file recorded TPOT means (schema 2 on).
type runSeries struct {
	rows        []sinks.SeriesRow
	size        int
	hasTPOTMean bool
}

func readSeries(ctx context.Context, dir string) (map[seriesKey]*runSeries, error) {
	out := map[seriesKey]*runSeries{}
	for r, err := range sinks.ReadSeries(ctx, dir, sinks.ReadOptions{}) {
		if err != nil {
			return nil, err
		}
		k := seriesKey{r.RunID, r.EventsSHA256}
		has := r.Has("tpot_mean_ns")
		rs := out[k]
		if rs == nil {
			rs = &runSeries{hasTPOTMean: has}
			out[k] = rs
		}
		r.Stored = nil
		rs.rows = append(rs.rows, r)
		rs.size = r.SuperpassSize
		rs.hasTPOTMean = rs.hasTPOTMean && has
	}
	for _, rs := range out {
		slices.SortFunc(rs.rows, func(a, b sinks.SeriesRow) int { return cmp.Compare(a.SP, b.SP) })
		rs.rows = slices.CompactFunc(rs.rows, func(a, b sinks.SeriesRow) bool { return a.SP == b.SP })
	}
	return out, nil
}

// Pair is one (run, config) present in both sweeps, compared.
type Pair struct {
	Key                 PairKey
	RunRel, ConfigLabel string
	Comparison
}

// SweepComparison compares two sweep outputs pair by pair.
type SweepComparison struct {
	A, B  *SweepSide
	Pairs []Pair
	// OnlyA and OnlyB are the keys present in one sweep only.
	OnlyA, OnlyB []PairKey
}

// CompareSweeps compares every (run, config) of a present in b, in run
// path then config label order.
func CompareSweeps(a, b *SweepSide) *SweepComparison {
	c := &SweepComparison{A: a, B: b}
	for k, sa := range a.Rows {
		sb, ok := b.Rows[k]
		if !ok {
			c.OnlyA = append(c.OnlyA, k)
			continue
		}
		c.Pairs = append(c.Pairs, Pair{Key: k, RunRel: a.RunRel[k], ConfigLabel: a.ConfigLabel[k], Comparison: Compare(sa, sb)})
	}
	for k := range b.Rows {
		if _, ok := a.Rows[k]; !ok {
			c.OnlyB = append(c.OnlyB, k)
		}
	}
	slices.SortFunc(c.Pairs, func(x, y Pair) int {
		return cmp.Or(cmp.Compare(x.RunRel, y.RunRel), cmp.Compare(x.ConfigLabel, y.ConfigLabel), cmp.Compare(x.Key.ConfigID, y.Key.ConfigID))
	})
	byKey := func(x, y PairKey) int {
		return cmp.Or(cmp.Compare(x.RunID, y.RunID), cmp.Compare(x.ConfigID, y.ConfigID))
	}
	slices.SortFunc(c.OnlyA, byKey)
	slices.SortFunc(c.OnlyB, byKey)
	return c
}

// Summary counts the pairs by outcome (Faster, Slower, Mixed, Unchanged,
// NoCompare) and the verdict and status changes.
func (c *SweepComparison) Summary() (byOutcome map[string]int, verdictChanged, statusChanged int) {
	byOutcome = map[string]int{}
	for i := range c.Pairs {
		byOutcome[c.Pairs[i].Outcome()]++
		if c.Pairs[i].VerdictChanged() {
			verdictChanged++
		}
		if c.Pairs[i].StatusChanged() {
			statusChanged++
		}
	}
	return byOutcome, verdictChanged, statusChanged
}
