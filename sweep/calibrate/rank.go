package calibrate

import (
	"cmp"
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// CBWTolerance is the step in which confident-but-wrong rates are
// compared when ranking: rates in the same whole step tie and the next
// key decides.
const CBWTolerance = 0.01

// rankConfigs sorts cs by the ranking of the package doc and sets Rank.
func rankConfigs(cs []*calibration.ConfigScore) {
	slices.SortStableFunc(cs, compareConfigs)
	for i, c := range cs {
		c.Rank = i + 1
	}
}

// compareConfigs orders a before b when a ranks higher.
func compareConfigs(a, b *calibration.ConfigScore) int {
	if c := cmpUndefinedLast(cbwStep(a.ConfidentWrongRate), cbwStep(b.ConfidentWrongRate), false); c != 0 {
		return c
	}
	if c := cmpUndefinedLast(a.FoundRate, b.FoundRate, true); c != 0 {
		return c
	}
	if c := cmpUndefinedLast(a.ErrMedian, b.ErrMedian, false); c != 0 {
		return c
	}
	if c := cmpUndefinedLast(a.AgreeRate, b.AgreeRate, true); c != 0 {
		return c
	}
	// A full tie goes to the config nearer its compat's defaults: no
	// evidence favours moving a parameter away from them.
	if c := cmp.Compare(changedFromDefaults(a.Params), changedFromDefaults(b.Params)); c != 0 {
		return c
	}
	return cmp.Compare(a.ConfigID, b.ConfigID)
}

// compatDefaults are the default parameters of each compat.
func compatDefaults() map[string]core.Params {
	return map[string]core.Params{
		string(core.CompatSteadysweep): core.DefaultParams(), string(core.CompatReference): core.ReferenceParams()}
}

// changedFromDefaults counts the parameters of params (by core.Names
// name) that differ from its compat's defaults; compat and method do not
// count.
func changedFromDefaults(params map[string]string) int {
	d := compatDefaults()[params["compat"]]
	n := 0
	for _, name := range core.Names() {
		if v, _ := d.Get(name); name != "compat" && name != "method" && v != params[name] {
			n++
		}
	}
	return n
}

// cbwStep is the confident-but-wrong rate's step index (NaN stays NaN).
func cbwStep(rate float64) float64 {
	if math.IsNaN(rate) {
		return rate
	}
	return math.Floor(rate/CBWTolerance + 1e-9)
}

// cmpUndefinedLast compares x and y, larger first when desc, NaN after
// every number.
func cmpUndefinedLast(x, y float64, desc bool) int {
	switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	}
	if desc {
		return cmp.Compare(y, x)
	}
	return cmp.Compare(x, y)
}
