package sinks

import (
	"encoding/hex"
	"math"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/sha256"
)

// SchemaVersion is written into every row; bump it when a column is
// added or changes meaning or type. Resume only reuses rows of the same
// version (it redoes older ones). History: 1 the first layout; 2 n_failed,
// failed_frac, steadysweep throughput null when unsupported; 3 the run's
// metadata (model … run_duration_s), preset and config_label in rows, and
// tpot_mean_ns in series; 4 the earliest stop (stop_at_s, stop_saved_frac,
// stop_agrees, stop_saved_s); 5 the recording tool's own window beside
// ours (peer_window_source … peer_window_end_diff_s).
const SchemaVersion int32 = 5

// Provenance identifies the input and the tool that produced a row.
type Provenance struct {
	// EventsPath is the events file the run resolved to.
	EventsPath string
	// EventsSize and EventsMtimeNs are the events file's size in bytes and
	// modification time (Unix ns).
	EventsSize, EventsMtimeNs int64
	// EventsSHA256 is the hex SHA-256 of the events file as stored.
	EventsSHA256 string
	// ToolVersion and ToolCommit identify the steadysweep build.
	ToolVersion, ToolCommit string
	// Tokenizer identifies the output-token counter ("" when unknown).
	Tokenizer string
	// SourceFormat is the log format the run was read from (core.RunInfo's;
	// "" when the run could not be read).
	SourceFormat string
}

// RunMeta is what a row records about its run: the benchmark's setup as
// the run's sidecars or the recording tool's metadata give it, and counts
// over its tracked samples. The zero value is a run that could not be
// read: every count is null then.
type RunMeta struct {
	// Loaded reports that the run was read (the counts are known).
	Loaded bool
	// Model is the model name; TokenizerSource the output-token counter
	// used and where it was found.
	Model, TokenizerSource string
	// LoadPattern is the load pattern (core.RunInfo's vocabulary);
	// Concurrency its target concurrency (0: none or unknown) and
	// TargetQPS its target rate (0: none).
	LoadPattern string
	Concurrency int
	TargetQPS   float64
	// DatasetName and DatasetSize describe the dataset (size 0: unknown).
	DatasetName string
	DatasetSize int
	// Endpoint is the API type and server host as recorded.
	Endpoint string
	// NSamples is the number of tracked samples (the failed ones are the
	// analysis's failure summary, core.Outcome.NFailed).
	NSamples int
	// RunStartedNs is the first tracked issue on the wall clock (Unix ns)
	// when HasStart: only logs on an epoch clock have one.
	RunStartedNs int64
	HasStart     bool
	// RunDurationS is the first tracked issue to the last event (s).
	RunDurationS float64
}

// Row is one run analysed with one parameter set.
type Row struct {
	// RunPath is the run directory as discovered; RunRel its path relative
	// to the sweep root (the run's identity); RunID the hash of RunRel.
	RunPath    string
	RunRel     string
	RunID      string
	Provenance Provenance
	Meta       RunMeta
	ConfigID   string
	// Preset is the preset the parameter set was built from ("" when not
	// given); ConfigLabel its short label within the sweep (ConfigLabels).
	Preset, ConfigLabel string
	Params              core.Params
	Outcome             core.Outcome
	// AnalysisNs is the wall time of this analysis; IngestNs the wall time
	// of loading the run (shared by all its rows).
	AnalysisNs, IngestNs int64
	// SchemaVersion is the schema version a row read back (ReadRows) was
	// written under; the writer ignores it and writes SchemaVersion.
	SchemaVersion int32
	// Stored is the part file a row read back came from; nil for a row
	// being written.
	Stored *Stored
}

// Has reports whether r's part file has the column name: a column added
// after the file was written reads as null (as the field's null value).
// A row not read back has every column.
func (r *Row) Has(name string) bool { return r.Stored.Has(name) }

// ConfigID is the rows' config_id of a parameter set: the first 16 hex
// digits of the SHA-256 of its canonical text (core.Params.Canonical), so
// equal parameter sets share an id across runs, sweeps and versions.
func ConfigID(p core.Params) string { return configIDOf(p.Canonical()) }

// configIDOf is the config_id of a parameter set's canonical text.
func configIDOf(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:8])
}

// Key is what identifies a row for resuming: the same run, parameters,
// input bytes and schema.
type Key struct {
	RunID, ConfigID, EventsSHA256 string
	SchemaVersion                 int32
}

// Key returns r's resume key.
func (r *Row) Key() Key {
	return Key{RunID: r.RunID, ConfigID: r.ConfigID, EventsSHA256: r.Provenance.EventsSHA256, SchemaVersion: SchemaVersion}
}

// SeriesKey identifies a run's series for resuming.
type SeriesKey struct {
	RunID, EventsSHA256 string
	SchemaVersion       int32
}

// SeriesRow is one super-pass of one run's trajectory (at the run's
// default super-pass size), for plots.
type SeriesRow struct {
	RunID string
	// EventsSHA256 is the hash of the events file the series came from
	// (resume writes a run's series once per input).
	EventsSHA256                             string
	SP                                       int
	SuperpassSize                            int
	NIssued                                  int
	FirstIssueNs, LastIssueNs                int64
	TTFTP50Ns, TTFTP90Ns, TTFTP99Ns          float64
	TPOTP50Ns, TPOTP90Ns, TPOTP99Ns          float64
	TPOTMeanNs                               float64
	LatencyP50Ns, LatencyP90Ns, LatencyP99Ns float64
	OutTokens                                int64
	// SchemaVersion and Stored are as Row's.
	SchemaVersion int32
	Stored        *Stored
}

// Has reports whether s's part file has the column name (Row.Has).
func (s *SeriesRow) Has(name string) bool { return s.Stored.Has(name) }

// SeriesRowOf is the series row of super-pass digest d at super-pass size
// S (RunID and EventsSHA256 left to the caller): its counts and span, and
// each metric NaN (null) where the super-pass has none.
func SeriesRowOf(d core.SuperPassDigest, S int) SeriesRow {
	val := func(key string) float64 {
		if m := core.MetricIndex(key); d.Has[m] {
			return d.Value[m]
		}
		return math.NaN()
	}
	return SeriesRow{SP: d.I, SuperpassSize: S, NIssued: d.NIssued,
		FirstIssueNs: d.FirstIssueNs, LastIssueNs: d.LastIssueNs, OutTokens: d.OutTokens,
		TTFTP50Ns: val("ttft_p50"), TTFTP90Ns: val("ttft_p90"), TTFTP99Ns: val("ttft_p99"),
		TPOTP50Ns: val("tpot_p50"), TPOTP90Ns: val("tpot_p90"), TPOTP99Ns: val("tpot_p99"), TPOTMeanNs: d.TPOTMean,
		LatencyP50Ns: val("latency_p50"), LatencyP90Ns: val("latency_p90"), LatencyP99Ns: d.LatencyP99}
}
