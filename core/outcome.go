package core

// Outcome is the flat, typed digest of one analysis: one value per column
// of a sweep row. Durations and latencies are in the unit their name says;
// NaN marks a value that does not exist for this run (no window, no TPOT).
// Indices of super-passes are absolute (warmup included), the end inclusive,
// so they mean the same thing under every parameter set.
type Outcome struct {
	// Status is the coverage status: "windowable", "insufficient_passes",
	// "partial_dataset", "insufficient_duration", "not_supported", "error".
	Status string
	// Partial reports a truncated or interrupted log.
	Partial bool
	// Verdict is "STEADY STATE", "drifting_up", "drifting_down", "anomaly"
	// or "not found".
	Verdict string
	// Reason explains a non-found or non-windowable outcome ("" otherwise).
	Reason string
	// Found is the detector's found flag.
	Found bool

	NSuperPasses  int
	SuperpassSize int
	Warmup        int
	NPlateaus     int
	// WindowStartSP and WindowEndSP bound the reported window (absolute,
	// end inclusive); -1 when there is none.
	WindowStartSP, WindowEndSP int
	WindowSamples              int
	WindowDurationS            float64
	MinDurationS               float64
	MinDurationDominant        string
	IsShort                    bool

	StateTPOTP50, StateTPOTP90 string // "Plateau", "Drifting Up", "Drifting Down", ""

	SteadyTTFTP50Ns, SteadyTTFTP90Ns, SteadyTTFTP99Ns float64
	SteadyTPOTP50Ns, SteadyTPOTP90Ns, SteadyTPOTP99Ns float64
	TotalTTFTP50Ns, TotalTTFTP90Ns, TotalTTFTP99Ns    float64
	TotalTPOTP50Ns, TotalTPOTP90Ns, TotalTPOTP99Ns    float64

	SteadyTPSPerUser, SteadyTPSPerUserCILo, SteadyTPSPerUserCIHi float64
	SteadyTPSSystem, SteadyTPSSystemCILo, SteadyTPSSystemCIHi    float64
	TotalTPSPerUser, TotalTPSSystem                              float64

	AnomalyDetected     bool
	ChangePointSP       int // absolute; -1 when none
	AnomalyDeltaPct     float64
	DriftingUp          []string
	TailCutApplied      bool
	EarlyStopTTFTP99Ns  float64 // NaN below the early-stopping floor
	EarlyStopTPOTP99Ns  float64
	GapTPSUpliftPct     float64
	GapTTFTP99ChangePct float64
	GapRetainedFrac     float64
}
