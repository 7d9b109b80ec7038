package sinks

import (
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// TestConfigIDsAndLabels: the batch's ids are ConfigID of each set (the
// hash of core.Params.Canonical, which CanonicalOf must reproduce), over
// sets that differ in a float, a list, an enum and a bool.
func TestConfigIDsAndLabels(t *testing.T) {
	var cfgs []core.Params
	for i, base := range []core.Params{core.DefaultParams(), core.ReferenceParams()} {
		p := base
		p.Alpha = 0.01 * float64(i+1)
		p.WindowSizes = []int{3, 5}
		p.MinDuration = i == 0
		cfgs = append(cfgs, base, p)
	}
	ids, _ := ConfigIDsAndLabels(cfgs)
	for i, p := range cfgs {
		if ids[i] != ConfigID(p) {
			t.Errorf("set %d: id %s, ConfigID %s", i, ids[i], ConfigID(p))
		}
		if got := string(core.CanonicalOf(core.Names(), p.Texts())); got != string(p.Canonical()) {
			t.Errorf("set %d: CanonicalOf %q, Canonical %q", i, got, p.Canonical())
		}
	}
}
