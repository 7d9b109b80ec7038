package core

// PeerWindow is the measurement window the recording tool chose for
// itself — GuideLLM ≥ 0.5's scheduler_metrics.measure_start_time /
// measure_end_time, its warmup and cooldown trimmed — kept beside ours so
// the two verdicts can be compared. Times are on the run's clock, ns.
type PeerWindow struct {
	// Source names the tool and the fields the window came from.
	Source         string
	StartNs, EndNs int64
}
