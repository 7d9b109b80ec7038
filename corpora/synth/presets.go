package synth

import (
	"fmt"
	"strings"
)

// preset is a named scenario: what it plants and the Spec that plants it.
type preset struct {
	name        string
	shape       string
	description string
	spec        func(seed uint64) Spec
}

var presets = []preset{
	{
		name:        "clean_ramp",
		shape:       "clean plateau after a short ramp",
		description: "Closed loop C=16; clients start staggered so the running batch fills over ~1.5 super-passes (TPOT ramps from h0=0.6x to 1.0x), then a flat plateau at the planted level with 3% antithetic per-request jitter.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 16, DatasetSize: 150, Passes: 18, OutputTokS: 220, RampSuperPasses: 1.5}
		},
	},
}

func presetByName(name string) (preset, bool) {
	for _, p := range presets {
		if p.name == name {
			return p, true
		}
	}
	return preset{}, false
}

// Presets returns the preset names in a fixed order.
func Presets() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}

// PresetSpec returns the Spec of the named preset with the given seed. An unknown
// name is an error listing the valid names.
func PresetSpec(name string, seed uint64) (Spec, error) {
	p, ok := presetByName(name)
	if !ok {
		return Spec{}, fmt.Errorf("synth: unknown preset %q (valid: %s)", name, strings.Join(Presets(), ", "))
	}
	s := p.spec(seed)
	s.Preset, s.Seed = name, seed
	return s, nil
}
