package core

// Profile is a workload profile (detector spec §2.4): what a load pattern
// changes in the detection. Concurrency, poisson, offline and unknown run
// identical detection and differ only in their caveat; agentic takes the
// NATL path (§13).
type Profile struct {
	Name string
	// Path is PathWindow (super-pass windows) or PathNATL (agentic NATL).
	Path Path
	// SuperpassUnit is "samples" or "trajectories".
	SuperpassUnit string
	// DefaultSuperpass is the default super-pass size when no size is
	// given: 0 means the dataset size (window path), 32 trajectories for
	// NATL.
	DefaultSuperpass int
	// CovBounds are the default CoV bounds.
	CovBounds []float64
	// WarmupDriver is the default auto-warmup driver metric.
	WarmupDriver string
	// TokenizeBatchSize is the reference's tokenizer flush size (memory
	// only; no effect on results).
	TokenizeBatchSize int
	// Supported is the reference's validated flag (never read by its CLI).
	Supported bool
	// Note is the caveat text ("" for concurrency).
	Note string
}

// Path is the analysis a profile takes.
type Path string

// The two analysis paths.
const (
	PathWindow Path = "window" // super-pass windows (§6–§10)
	PathNATL   Path = "natl"   // the agentic per-trajectory throughput (§13)
)

func (p Path) String() string { return string(p) }

// Profiles returns the reference's five profiles, in its order (fresh
// values each call).
func Profiles() []Profile {
	window := func() []float64 { return []float64{0.03, 0.05, 0.08} }
	return []Profile{
		{"concurrency", PathWindow, "samples", 0, window(), "tpot_p50", 4096, true, ""},
		{"poisson", PathWindow, "samples", 0, window(), "tpot_p50", 4096, true,
			"poisson: same detection as concurrency; usually under-saturated with the weakest ramp/drain."},
		{"offline", PathWindow, "samples", 0, window(), "tpot_p50", 4096, true,
			"offline: issue-time throughput degenerate (all issued at t=0); the window and drain are " +
				"completion-based (partial support -- system TPS is unreliable)."},
		{"agentic", PathNATL, "trajectories", 32, []float64{0.10, 0.15}, "tpot_p50", 512, false,
			"agentic steady-state detection is NOT yet supported and requires further study."},
		{"unknown", PathWindow, "samples", 0, window(), "tpot_p50", 4096, false,
			"unrecognised load pattern: no validated profile for this workload."},
	}
}

// ProfileNames returns the profile names in the reference's order.
func ProfileNames() []string {
	return textsOf(Profiles(), func(p Profile) string { return p.Name })
}

// LookupProfile returns the profile of the given name.
func LookupProfile(name string) (Profile, bool) {
	for _, p := range Profiles() {
		if p.Name == name {
			return p, true
		}
	}
	return Profile{}, false
}

// ProfileForLoadPattern maps a config.yaml load pattern type to its profile
// (§2.4), failing closed: "" → concurrency, agentic_inference → agentic,
// poisson → poisson, max_throughput and offline → offline, concurrency →
// concurrency, anything else (matched case-sensitively) → unknown.
func ProfileForLoadPattern(lp string) Profile {
	name := "unknown"
	switch lp {
	case "", "concurrency":
		name = "concurrency"
	case "agentic_inference":
		name = "agentic"
	case "poisson":
		name = "poisson"
	case "max_throughput", "offline":
		name = "offline"
	}
	p, _ := LookupProfile(name)
	return p
}

// Caveat returns the profile's stderr caveat line "[profile: NAME] NOTE",
// or "" when the profile has no note.
func (p Profile) Caveat() string {
	if p.Note == "" {
		return ""
	}
	return "[profile: " + p.Name + "] " + p.Note
}

// ResolveProfile picks the profile an analysis uses: Params.Profile if it
// names one, else the run's load pattern's.
func ResolveProfile(info RunInfo, p Params) Profile {
	if p.Profile != "" {
		if pr, ok := LookupProfile(p.Profile); ok {
			return pr
		}
	}
	return ProfileForLoadPattern(info.LoadPattern)
}
