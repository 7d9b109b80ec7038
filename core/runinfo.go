package core

// RunInfo is what the detector needs to know about a run besides its
// samples: the facts read from the run's sidecars (config.yaml,
// run_meta.json, sample_idx_map.json) and from the shape of its log.
// Zero values mean "unknown".
type RunInfo struct {
	// DatasetSize is the number of samples in one pass over the dataset;
	// it is the default super-pass size (detector spec §2.6).
	DatasetSize int
	// DatasetSizeSource says where DatasetSize came from, e.g.
	// "run_meta.json", "sample_idx_map.json", "--dataset-size".
	DatasetSizeSource string
	// LoadPattern is config.yaml's load pattern type as written
	// ("concurrency", "poisson", "max_throughput", "offline",
	// "agentic_inference", …); "" when absent.
	LoadPattern string
	// Concurrency is the target concurrency (0 when not a concurrency run).
	Concurrency int
	// TargetQPS is the Poisson target rate (0 when absent).
	TargetQPS float64
	// Model is the model name from config.yaml (or the tool's own
	// metadata).
	Model string
	// DatasetName names the performance dataset as the log's metadata
	// records it (config.yaml datasets[].name, GuideLLM's data argument,
	// vLLM's dataset_name); "" when not recorded.
	DatasetName string
	// Endpoint is the API type and the server's host as recorded, e.g.
	// "openai 10.0.4.17:8000" (config.yaml endpoint_config, AIPerf's
	// endpoint type and url, GuideLLM's backend and target); "" when not
	// recorded.
	Endpoint string
	// Streaming reports whether the run streamed tokens (true when unknown).
	Streaming bool
	// MinDurationS and MaxDurationS are the configured run bounds in
	// seconds (0 when absent).
	MinDurationS, MaxDurationS float64
	// Partial reports a truncated or interrupted log (no session.ended,
	// or a cut last line); PartialReason says which.
	Partial       bool
	PartialReason string

	// SourceFormat names the log format the run was read from:
	// "endpoints", "endpoints-legacy", "aiperf", "guidellm" or "vllm"
	// ("" is endpoints, as read before formats were recorded).
	SourceFormat string
	// SourcePath is the file the samples were read from (with "#N" for
	// one benchmark of a multi-benchmark report).
	SourcePath string
	// ToolVersion is the recording tool's version where its log or summary
	// says it ("" unknown).
	ToolVersion string
	// ToolLoadPattern is the load pattern as the tool named it (GuideLLM
	// "synchronous", AIPerf "concurrency_burst", …) when LoadPattern is
	// that name mapped onto the profiles' vocabulary.
	ToolLoadPattern string
	// EpochClock reports timestamps on the wall clock (Unix epoch ns):
	// AIPerf and GuideLLM record them so; the endpoints client and vLLM
	// use a monotonic clock with an arbitrary origin.
	EpochClock bool
	// TokensRecorded reports token counts taken from the log (the tool's
	// own counts) rather than counted from output text.
	TokensRecorded bool
	// NoTimelineReason is non-empty when the log records no per-request
	// start times, so samples cannot be placed in time and the run cannot
	// be windowed; it says why (whole-run numbers only).
	NoTimelineReason string
	// PeerWindow is the recording tool's own measurement window, nil
	// when its log records none.
	PeerWindow *PeerWindow
	// Recorded are whole-run summaries of per-request fields the tool
	// records that have no column (RecordedStat); nil when none.
	Recorded []RecordedStat `json:",omitempty"`
	// EventAnomalies are the impossible events the decoder found (a
	// COMPLETE without ISSUED, out-of-order or duplicated events), per
	// kind; the detector adds the kinds the columns show (timing.go).
	EventAnomalies []EventAnomaly `json:",omitempty"`
}

// HasDatasetPass reports whether the run's log comes from a client that
// replays a dataset in passes (the endpoints client, any generation), so
// its super-pass size is a dataset pass. Another tool's log (AIPerf,
// GuideLLM, vLLM, …) has none: its super-pass size is a default, and a
// run shorter than one super-pass is a short run, not a partial dataset.
// (columnar.Format.HasDatasetPass names the same formats.)
func (i RunInfo) HasDatasetPass() bool {
	switch i.SourceFormat {
	case "", "endpoints", "endpoints-legacy":
		return true
	}
	return false
}
