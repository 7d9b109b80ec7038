package compare

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/steadysweep/steadysweep/core"
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
func ReadSweep(ctx context.Context, dir string, mem memory.Allocator) (*SweepSide, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	series, err := readSeries(ctx, filepath.Join(dir, "series"), mem)
	if err != nil {
		return nil, err
	}
	files, err := sinks.PartFiles(filepath.Join(dir, "rows"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no rows part files: not a sweep output directory", dir)
	}
	s := &SweepSide{Dir: dir, Rows: map[PairKey]Side{}, RunRel: map[PairKey]string{}, ConfigLabel: map[PairKey]string{}}
	version := map[PairKey]int64{}
	err = readBatches(ctx, files, mem, func(b *batch) error {
		for i := range b.rows() {
			k := PairKey{b.str("run_id", i), b.str("config_id", i)}
			if v := b.i64("schema_version", i, 0); v < version[k] {
				continue
			} else {
				version[k] = v
			}
			out := outcomeOf(b, i)
			rel, label := b.str("run_rel", i), b.str("config_label", i)
			ser := series[seriesKey{k.RunID, b.str("events_sha256", i)}]
			if ser == nil { // a run that failed (error rows) has no series
				ser = &runSeries{}
			}
			side := sideOf(rel, label, &out, ser.rows, ser.size)
			side.ConfigID = k.ConfigID
			if side.BatchNote == "" && len(ser.rows) > 0 && !ser.hasTPOTMean {
				side.noTPOTMean = true
			}
			s.Rows[k], s.RunRel[k], s.ConfigLabel[k] = side, rel, label
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// outcomeOf reads the outcome columns compare uses from row i.
func outcomeOf(b *batch, i int) core.Outcome {
	return core.Outcome{
		Status: core.Status(b.str("status", i)), Verdict: core.Verdict(b.str("verdict", i)), Reason: b.str("reason", i),
		WindowStartSP: int(b.i64("window_start_sp", i, -1)), WindowEndSP: int(b.i64("window_end_sp", i, -1)),
		SuperpassSize:   int(b.i64("superpass_size_used", i, 0)),
		SteadyTTFTP50Ns: b.f64("steady_ttft_p50_ns", i), SteadyTTFTP90Ns: b.f64("steady_ttft_p90_ns", i),
		SteadyTTFTP99Ns: b.f64("steady_ttft_p99_ns", i), SteadyTPOTP50Ns: b.f64("steady_tpot_p50_ns", i),
		SteadyTPOTP90Ns: b.f64("steady_tpot_p90_ns", i), SteadyTPOTP99Ns: b.f64("steady_tpot_p99_ns", i),
		SteadyTPSPerUser: b.f64("steady_tps_per_user", i), SteadyTPSPerUserCILo: b.f64("steady_tps_per_user_ci_lo", i),
		SteadyTPSPerUserCIHi: b.f64("steady_tps_per_user_ci_hi", i),
		SteadyTPSSystem:      b.f64("steady_tps_system", i), SteadyTPSSystemCILo: b.f64("steady_tps_system_ci_lo", i),
		SteadyTPSSystemCIHi: b.f64("steady_tps_system_ci_hi", i),
	}
}

type seriesKey struct{ RunID, EventsSHA256 string }

// runSeries is one run's series rows (sp order), their super-pass size,
// and whether the file recorded TPOT means (schema 2 on).
type runSeries struct {
	rows        []sinks.SeriesRow
	size        int
	hasTPOTMean bool
}

func readSeries(ctx context.Context, dir string, mem memory.Allocator) (map[seriesKey]*runSeries, error) {
	files, err := sinks.PartFiles(dir)
	if err != nil {
		return nil, err
	}
	out := map[seriesKey]*runSeries{}
	err = readBatches(ctx, files, mem, func(b *batch) error {
		has := b.has("tpot_mean_ns")
		for i := range b.rows() {
			k := seriesKey{b.str("run_id", i), b.str("events_sha256", i)}
			rs := out[k]
			if rs == nil {
				rs = &runSeries{hasTPOTMean: has}
				out[k] = rs
			}
			r := sinks.SeriesRow{SP: int(b.i64("sp", i, -1)), SuperpassSize: int(b.i64("superpass_size", i, 0)),
				FirstIssueNs: b.i64("first_issue_ns", i, -1), LastIssueNs: b.i64("last_issue_ns", i, -1),
				OutTokens: b.i64("out_tokens", i, 0),
				TTFTP50Ns: b.f64("ttft_p50_ns", i), TTFTP90Ns: b.f64("ttft_p90_ns", i), TTFTP99Ns: b.f64("ttft_p99_ns", i),
				TPOTP50Ns: b.f64("tpot_p50_ns", i), TPOTP90Ns: b.f64("tpot_p90_ns", i), TPOTP99Ns: b.f64("tpot_p99_ns", i),
				TPOTMeanNs: b.f64("tpot_mean_ns", i)}
			rs.rows = append(rs.rows, r)
			rs.size = r.SuperpassSize
			rs.hasTPOTMean = rs.hasTPOTMean && has
		}
		return nil
	})
	if err != nil {
		return nil, err
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
