package synth

// Truth is what a run's truth.json holds: the planted ground truth, the
// generator's own per-super-pass rollup of what it wrote, and the verdict a
// correct detector should reach. Field names follow the parity corpus's
// truth.json (parity/README.md "truth.json") where one exists there.
type Truth struct {
	Name               string           `json:"name"`
	Set                string           `json:"set"`
	Seed               uint64           `json:"seed"`
	Mode               string           `json:"mode"`
	LoadPattern        string           `json:"load_pattern"`
	Shape              string           `json:"shape"`
	Description        string           `json:"description"`
	DatasetSize        int              `json:"dataset_size"`
	SuperpassSize      int              `json:"superpass_size"`
	NSuperPassesInFile int              `json:"n_super_passes_in_file"`
	Load               Load             `json:"load"`
	ServiceRateTokS    float64          `json:"service_rate_tok_s"`
	TokenCounter       string           `json:"token_counter"`
	Planted            Planted          `json:"planted"`
	Counts             Counts           `json:"counts"`
	FileNotes          FileNotes        `json:"file_notes"`
	SimulatedPerSP     []SuperPassStats `json:"simulated_per_sp"`
	ExpectedVerdict    Verdict          `json:"expected_verdict"`
	Agentic            *AgenticTruth    `json:"agentic,omitempty"`
}

// Load is the offered load: closed-loop clients or active conversations (C), the
// Poisson rate (qps) and the offline admission cap (max_batch).
type Load struct {
	C        int     `json:"C"`
	QPS      float64 `json:"qps,omitempty"`
	MaxBatch int     `json:"max_batch,omitempty"`
}

// Planted is the ground truth the generator planted. Super-pass sp covers the
// tracked issues [sp·N, (sp+1)·N).
type Planted struct {
	// TPOTBaseMs is the per-token time at the reference batch without any shape:
	// b_ref / service rate.
	TPOTBaseMs float64 `json:"tpot_base_ms"`
	// TPOTLevelMsPerSP is the planted level per super-pass: base × drift × steps
	// × noise, averaged over the super-pass's requests (no jitter, no batch
	// factor). On a flat super-pass every request has exactly this level.
	TPOTLevelMsPerSP []float64 `json:"tpot_level_ms_per_sp"`
	// TPOTLevelMultPerSP is TPOTLevelMsPerSP / TPOTBaseMs.
	TPOTLevelMultPerSP []float64 `json:"tpot_level_mult_per_sp"`
	// FlatSPs lists the full super-passes whose requests all share one planted
	// level and all have their COMPLETE in the file; in closed loops every
	// request that decoded also did so entirely at the reference batch. These
	// are the planted plateau's super-passes.
	FlatSPs []int `json:"flat_sps"`
	// ExactMedianSPs are the closed-loop flat super-passes in which every request
	// succeeded with at least two tokens: their TPOTs are level·(1±e) in
	// antithetic pairs, so their median (mean of the two middle values) equals
	// the planted level up to nanosecond rounding.
	ExactMedianSPs []int `json:"exact_median_sps"`
	// FlatRuns are the maximal runs [lo, hi) of consecutive flat super-passes
	// with one level multiplier (noise aside): the planted plateaus.
	FlatRuns [][2]int `json:"flat_runs"`
	// WarmupEndSP is the position (tracked issues / N) at which the running batch
	// first reached b_ref: the end of the admission ramp. Null if it never did.
	WarmupEndSP *float64 `json:"warmup_end_sp"`
	// ChangePointsSP are the planted KV-eviction level shifts' positions.
	ChangePointsSP []float64 `json:"change_points_sp"`
	// Ramp is the planted TPOT ramp over the issue position (Spec.RampFrom);
	// nil without one.
	Ramp *RampTruth `json:"ramp,omitempty"`
	// Wave is the planted oscillation (Spec.WaveAmp); nil without one.
	Wave  *WaveTruth   `json:"wave,omitempty"`
	Steps []Step       `json:"steps"`
	Drift []DriftTruth `json:"drift"`
	Noise []NoiseTruth `json:"noise"`
	// JitterSigma is the per-request relative TPOT jitter (antithetic pairs).
	JitterSigma   float64     `json:"jitter_sigma"`
	BatchFactor   BatchFactor `json:"batch_factor"`
	DrainTimeoutS float64     `json:"drain_timeout_s"`
	MaxDurationS  *float64    `json:"max_duration_s"`
	// OutputWordsMedian and OutputSigma describe planted output lengths: tokens =
	// words = 1 (first chunk) + words after the first chunk.
	OutputWordsMedian float64 `json:"output_words_median"`
	OutputSigma       float64 `json:"output_sigma"`
	MaxNewTokens      int     `json:"max_new_tokens"`
}

// DriftTruth is a linear level drift of Total (relative) from X0 to X1 (in
// super-passes).
type DriftTruth struct {
	X0    float64 `json:"x0"`
	X1    float64 `json:"x1"`
	Total float64 `json:"total"`
}

// RampTruth is a planted TPOT ramp: the level times 1 − (1−From)·exp(−u/LenSP)
// ("exp") or From + (1−From)·min(u/LenSP, 1) ("lin"), u = (tracked position
// + 1) / N.
type RampTruth struct {
	From  float64 `json:"from"`
	LenSP float64 `json:"len_sp"`
	Kind  string  `json:"kind"`
}

// WaveTruth is a planted oscillation: the level times 1 + Amp·sin(2π·x/PeriodSP),
// x = pos/N.
type WaveTruth struct {
	Amp      float64 `json:"amp"`
	PeriodSP float64 `json:"period_sp"`
}

// NoiseTruth is lognormal level noise drawn per epoch of EpochSP super-passes.
type NoiseTruth struct {
	Sigma   float64 `json:"sigma"`
	EpochSP float64 `json:"epoch_sp"`
}

// BatchFactor is the TPOT multiplier h0 + (1−h0)·b/b_ref over the running batch b.
type BatchFactor struct {
	H0   float64 `json:"h0"`
	BRef int     `json:"b_ref"`
}

// Counts are event and sample counts of the written file.
type Counts struct {
	PerfIssued             int `json:"perf_issued"`
	TrackedIssuedInFile    int `json:"tracked_issued_in_file"`
	UntrackedPerfIssued    int `json:"untracked_perf_issued"`
	FailedTracked          int `json:"failed_tracked"`
	FailedHTTP             int `json:"failed_http"`
	FailedMidstream        int `json:"failed_midstream"`
	AgenticTimeouts        int `json:"agentic_timeouts"`
	AgenticSkippedTurns    int `json:"agentic_skipped_turns"`
	DuplicateIssued        int `json:"duplicate_issued"`
	DuplicateRecvFirst     int `json:"duplicate_recv_first"`
	TrackedWithoutComplete int `json:"tracked_without_complete"`
	ZeroTokenAfterFirst    int `json:"zero_token_after_first"`
	LengthCapped           int `json:"length_capped"`
	ToolCallOutputs        int `json:"tool_call_outputs"`
	Lines                  int `json:"lines"`
}

// FileNotes describe deliberate damage to the file. TruncatedAtLine is the
// 1-based number of the cut last line (counted in Counts.Lines), as in parity's
// conc_truncated.
type FileNotes struct {
	Truncated         bool `json:"truncated,omitempty"`
	TruncatedAtLine   int  `json:"truncated_at_line,omitempty"`
	LastLineCharsKept int  `json:"last_line_chars_kept,omitempty"`
	NoSampleIdxMap    bool `json:"no_sample_idx_map,omitempty"`
}

// SuperPassStats is the generator's rollup of one super-pass from the logged
// timestamps (first ISSUED of each uuid). TPOT = (complete − recv_first) / words
// after the first chunk; percentiles take index int(p·(n−1)) of the sorted
// values, as parity's simulated_per_sp does; TPOTMedianMs is the ordinary median
// (mean of the two middle values for even n).
type SuperPassStats struct {
	SP           int     `json:"sp"`
	NIssued      int     `json:"n_issued"`
	IssueSpanS   float64 `json:"issue_span_s"`
	TPOTP50Ms    float64 `json:"tpot_p50_ms"`
	TPOTP90Ms    float64 `json:"tpot_p90_ms"`
	TPOTMedianMs float64 `json:"tpot_median_ms"`
	TTFTP50Ms    float64 `json:"ttft_p50_ms"`
	TTFTP90Ms    float64 `json:"ttft_p90_ms"`
	LatencyP90S  float64 `json:"latency_p90_s"`
	NTPOT        int     `json:"n_tpot"`
	OutTokens    int     `json:"out_tokens"`
}

// Verdict is the outcome a correct detector should reach.
type Verdict struct {
	// Verdict is one of steady, anomaly, drifting_up, drifting_down, not_found,
	// partial_dataset, insufficient_passes, not_supported.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// FoundNoMinDuration: a steady window should be reported when the wall-time
	// floor is off (the first planted plateau is admissible).
	FoundNoMinDuration bool `json:"found_no_min_duration"`
	// Found: additionally, the first planted plateau's issue span clears both the
	// 600 s floor and 5 × p90 latency (the relaxation term).
	Found bool `json:"found"`
	// PlateauSpanS is that plateau's issue span; PlateauSP its [lo, hi).
	PlateauSpanS float64 `json:"plateau_span_s"`
	PlateauSP    *[2]int `json:"plateau_sp"`
}

// AgenticTruth describes an agentic run's dataset and trajectories.
type AgenticTruth struct {
	Conversations       int `json:"dataset_conversations"`
	DatasetTurns        int `json:"dataset_turns"`
	Trajectories        int `json:"trajectories"`
	TrajectoriesStarted int `json:"trajectories_started"`
}
