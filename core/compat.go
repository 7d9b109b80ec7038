package core

// Compat selects the detector's behaviour: steadysweep's own, or exactly
// the reference's at 40b78bfe.
type Compat string

// The two behaviours.
const (
	CompatSteadysweep Compat = "steadysweep"
	CompatReference   Compat = "reference"
)

// Compats returns the compat values in documentation order.
func Compats() []Compat { return []Compat{CompatSteadysweep, CompatReference} }

func (c Compat) String() string { return string(c) }

// Valid reports whether c is one of Compats.
func (c Compat) Valid() bool { _, err := ParseCompat(string(c)); return err == nil }

// ParseCompat returns the Compat spelled s.
func ParseCompat(s string) (Compat, error) { return parseEnum("compat", s, Compats()) }

// strategy is one detector behaviour: the reference's, steadysweep's
// steady-state detector, or a peer baseline (baselines.go). The pipeline
// (run.go) calls its stages once each, in order; every stage reads what
// the earlier ones left in the analysis and adds its own part.
type strategy interface {
	// series is the super-pass series the strategy windows (a prefix of
	// the rollup: the reference keeps the partial last super-pass,
	// steadysweep windows full super-passes only).
	series(a *analysis) []SuperPass
	// warmup is the number of leading super-passes of the series cropped.
	warmup(a *analysis) int
	// selectSteady chooses and summarises the steady window of the
	// post-warmup series (Result.Steady, and for steadysweep the selection
	// record of the assessment).
	selectSteady(a *analysis)
	// finish completes the result once its window is chosen (steadysweep:
	// the assessment); it also runs after the agentic NATL path.
	finish(a *analysis)
}

// reference is the reference's behaviour at 40b78bfe (detector spec).
type reference struct{}

// steadysweep is steadysweep's own steady-state detector (design §5;
// docs/deviations.md).
type steadysweep struct{}

// strategyFor returns the strategy of p (validated).
func strategyFor(p Params) strategy {
	if p.Compat == CompatReference {
		return reference{}
	}
	switch p.Method {
	case MethodTotal, MethodFixedPct, MethodMSER5:
		return baseline{method: p.Method}
	}
	if isPeer(p.Method) {
		return baseline{method: p.Method}
	}
	return steadysweep{}
}
