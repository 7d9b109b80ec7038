package contract

import (
	"slices"

	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// IngestOptions configures Load and Ingest.
type IngestOptions struct {
	// Counter counts output tokens; nil leaves the counts null.
	Counter scan.TokenCounter
	// Workers is the number of decode goroutines (0: GOMAXPROCS).
	Workers int
	// TokenizeSample, when positive and the super-pass size S is known,
	// counts the post-first-chunk text of at most this many samples per
	// super-pass (chosen evenly spaced in issue order among those with
	// text); the others keep a null count. 0 counts all.
	TokenizeSample int
	// SuperPassSize is the S of TokenizeSample when the run's dataset size
	// is unknown (0: the dataset size only).
	SuperPassSize int
	// MaxLineSize caps a line (DefaultMaxLineSize when 0).
	MaxLineSize int
	// MemoryLimit is DecodeOptions.MemoryLimit (0: none).
	MemoryLimit int64
	// HashEvents computes the SHA-256 of the events file as stored (the
	// compressed bytes of a compressed log) while it is decoded, into
	// Loaded.EventsSHA256: the file is read once.
	HashEvents bool
	// KeyEvents computes the events file's content key (NewContentKey, the
	// column cache's name for the bytes: a cache fill asks for it) while it
	// is decoded, into Loaded.EventsKey, on the same read.
	KeyEvents bool
	// Progress, when set, receives the number of bytes read so far.
	Progress func(bytesRead int64)
}

// Loaded is an ingested run held as the detector's columns: the decoded
// samples with their uuids, text lengths and summary, the run's facts and
// dataset indices from its sidecars. Table builds the per-sample table
// when one is wanted (export).
type Loaded struct {
	Decoded
	// Info is the run's RunInfo, with Partial set from the summary.
	Info core.RunInfo
	// DatasetIndex is each sample's index in sample_idx_map.json (-1
	// when absent from it); nil without the sidecar.
	DatasetIndex []int64
	// EventsSHA256 is the hex SHA-256 of the events file as stored, when
	// IngestOptions.HashEvents asked for it (endpoints logs) or a cache
	// entry recorded it.
	EventsSHA256 string
	// EventsKey is the events file's content key (NewContentKey, hex), when
	// IngestOptions.KeyEvents asked for it or a cache entry recorded it.
	EventsKey string
}

// Attach sets the run's facts on the decoded samples: info (partial from
// the summary, the format's defaults) and the dataset indices of
// sample_idx_map.json. It is applied on every load, a cache hit included,
// so the cached columns depend on the log's bytes and the decode options.
func (l *Loaded) Attach(run *Run, info core.RunInfo) {
	l.DatasetIndex = nil
	if si := run.Sidecars.SampleIndex; si != nil && si.Performance {
		l.DatasetIndex = make([]int64, l.Samples.Len())
		for i := range l.DatasetIndex {
			v, ok := si.Lookup(l.UUID(i))
			if !ok {
				v = -1
			}
			l.DatasetIndex[i] = v
		}
	}
	info.Partial, info.PartialReason = l.Summary.Truncated, l.Summary.TruncatedReason
	info.EventAnomalies = slices.Clone(l.Summary.EventAnomalies)
	FinishInfo(run, &info, &l.Samples)
	l.Info = info
}

// SampleSuperPass is the super-pass size TokenizeSample samples per: the
// run's dataset size, else IngestOptions.SuperPassSize.
func SampleSuperPass(run *Run, opts IngestOptions) int {
	if run.Info.DatasetSize > 0 {
		return run.Info.DatasetSize
	}
	return opts.SuperPassSize
}

// TokensModeOf is when the agentic full-output count is taken for run.
func TokensModeOf(run *Run) FullTokensMode {
	if run.Info.LoadPattern == "agentic_inference" {
		return FullAlways
	}
	return FullAuto
}
