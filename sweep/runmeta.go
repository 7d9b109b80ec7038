package sweep

import (
	"math"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// RunMetaOf is what a row records about a loaded run: its setup from the
// run info (sidecars or the tool's metadata), the token counter, and
// counts over its tracked samples.
func RunMetaOf(run *LoadedRun) sinks.RunMeta {
	info := &run.Info
	m := sinks.RunMeta{
		Loaded: true, Model: info.Model, TokenizerSource: run.TokenizerSource,
		LoadPattern: info.LoadPattern, Concurrency: info.Concurrency, TargetQPS: info.TargetQPS,
		DatasetName: info.DatasetName, DatasetSize: info.DatasetSize, Endpoint: info.Endpoint,
		RunDurationS: math.NaN(),
	}
	if !info.HasDatasetPass() && info.DatasetSizeSource != "--dataset-size" {
		// A tool that replays no dataset in passes has no dataset size:
		// its super-pass size is a default (the superpass_size column),
		// not a size of the dataset, so the column is null.
		m.DatasetSize = 0
	}
	s := run.Samples
	if s == nil {
		return m
	}
	m.NSamples = s.Len()
	if info.NoTimelineReason != "" {
		return m // no per-request times: neither a start nor a span
	}
	if first, last, ok := trackedSpan(s); ok {
		m.RunDurationS = float64(last-first) / 1e9
		m.RunStartedNs, m.HasStart = first, info.EpochClock
	}
	return m
}

// trackedSpan is the first tracked issue and the last event of a tracked
// sample (the whole run's completion span, drain included), ok false
// without samples or with the last event before the first issue.
func trackedSpan(s *core.Samples) (first, last int64, ok bool) {
	if s.Len() == 0 {
		return 0, 0, false
	}
	first, last = s.IssueNs[0], s.IssueNs[0]
	for i, t := range s.IssueNs {
		first = min(first, t)
		last = max(last, t)
		if i < len(s.LastEventNs) {
			last = max(last, s.LastEventNs[i])
		}
	}
	return first, last, last >= first
}
