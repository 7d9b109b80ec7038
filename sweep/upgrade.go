package sweep

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

// upgradeSchema prepares a resumed sweep over part files written under
// another rows schema version. Rows of a newer version are refused (this
// binary would write a mixture it cannot read back). Rows of an older
// version are never reused — their keys hold their version — so they would
// be redone beside the old ones; instead the rows and series of this
// sweep's runs (under its configs) are taken out of the part files this
// process may rewrite, and redone. Older rows it must keep (runs or
// configs outside this sweep, other shards' files) are counted: the
// directory then mixes versions, which Progress says.
func (e *engine) upgradeSchema(ctx context.Context, states map[sinks.Key]sinks.RowState, series map[sinks.SeriesKey]string,
	runs []corpora.RunRef, sum *Summary) error {
	older := 0
	for k := range states {
		if k.SchemaVersion > sinks.SchemaVersion {
			return fmt.Errorf("%s holds rows of schema version %d, newer than this steadysweep's %d: resume with that version, or use a fresh output directory",
				states[k].File, k.SchemaVersion, sinks.SchemaVersion)
		}
		if k.SchemaVersion < sinks.SchemaVersion {
			older++
		}
	}
	for k, f := range series {
		if k.SchemaVersion > sinks.SchemaVersion {
			return fmt.Errorf("%s holds series of schema version %d, newer than this steadysweep's %d: resume with that version, or use a fresh output directory",
				f, k.SchemaVersion, sinks.SchemaVersion)
		}
	}
	if older == 0 && !hasOlderSeries(series) {
		return nil
	}
	taken, _, err := e.takeOutRows(ctx, states, runs, func(k sinks.Key, _ sinks.RowState) bool { return k.SchemaVersion < sinks.SchemaVersion })
	if err != nil {
		return fmt.Errorf("redo rows of an older schema: %w", err)
	}
	if err := e.takeOutOlderSeries(ctx, series, runs); err != nil {
		return fmt.Errorf("redo series of an older schema: %w", err)
	}
	sum.Upgraded, sum.UpgradeKept = taken, older-taken
	e.o.Progress.upgrading(older, taken)
	return nil
}

func hasOlderSeries(series map[sinks.SeriesKey]string) bool {
	for k := range series {
		if k.SchemaVersion < sinks.SchemaVersion {
			return true
		}
	}
	return false
}

// takeOutOlderSeries removes the series of an older schema of this
// sweep's runs from the series part files this process may rewrite (and
// from series), so the runs' series are written again under this one.
func (e *engine) takeOutOlderSeries(ctx context.Context, series map[sinks.SeriesKey]string, runs []corpora.RunRef) error {
	owned := ownedIDs(runs)
	redo := map[sinks.SeriesKey]bool{}
	files := map[string]bool{}
	for k, f := range series {
		if k.SchemaVersion < sinks.SchemaVersion && owned[k.RunID] && e.mayRewrite(f) {
			redo[k], files[f] = true, true
		}
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		if _, err := sinks.DropSeries(ctx, f, func(k sinks.SeriesKey) bool { return redo[k] }); err != nil {
			return err
		}
	}
	for k := range redo {
		delete(series, k)
	}
	return nil
}
