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
	// Model is the model name from config.yaml.
	Model string
	// Streaming reports whether the run streamed tokens (true when unknown).
	Streaming bool
	// MinDurationS and MaxDurationS are the configured run bounds in
	// seconds (0 when absent).
	MinDurationS, MaxDurationS float64
	// Partial reports a truncated or interrupted log (no session.ended,
	// or a cut last line); PartialReason says which.
	Partial       bool
	PartialReason string
}
