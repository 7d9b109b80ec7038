package sweep

import (
	"fmt"
	"strings"

	"github.com/steadysweep/steadysweep/core"
)

// presets are the named base parameter sets. Each is one configuration;
// grid axes apply on top of each.
var presets = [...]preset{
	{"default", "steadysweep's detector with its defaults (core.DefaultParams)", core.DefaultParams, ""},
	{"reference", "the reference detector's behaviour and defaults (core.ReferenceParams)", core.ReferenceParams, ""},
	{"total", "peer baseline: the whole tracked run", nil, core.MethodTotal},
	{"fixed-pct", "peer baseline: fixed warmup/cooldown percentages (GuideLLM)", nil, core.MethodFixedPct},
	{"mser5", "peer baseline: MSER-5 truncation", nil, core.MethodMSER5},
	// The peer detectors (core/peers.go; docs/peers.md cites each
	// peer's file and commit).
	{"aiperf", "peer detector: AIPerf's steady-state analyzer (CUSUM on concurrency and throughput ∩ MSER-5 on latency and TTFT)", nil, core.MethodAIPerf},
	{"vllm-bench", "peer detector: vllm-bench's in-flight ≥ 0.95 × max concurrency, first up-crossing to last down-crossing", nil, core.MethodVLLMBench},
	{"sglang", "peer detector: SGLang's longest span with concurrency ≥ 0.8 × peak", nil, core.MethodSGLang},
	{"guidellm", "peer detector: GuideLLM's measured window with its default warmup/cooldown (none)", nil, core.MethodGuideLLM},
}

// preset is one named parameter set: base's, or the defaults with
// method — data the linker lays out (a closure per method was built at
// every start).
type preset struct {
	name   string
	doc    string
	base   func() core.Params
	method core.Method
}

func (p *preset) params() core.Params {
	if p.base != nil {
		return p.base()
	}
	q := core.DefaultParams()
	q.Method = p.method
	return q
}

// PresetNames returns the preset names in documentation order.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}

// PresetDoc returns a one-line description of the named preset ("" when unknown).
func PresetDoc(name string) string {
	for _, p := range presets {
		if p.name == name {
			return p.doc
		}
	}
	return ""
}

// Preset returns the named preset's parameters.
func Preset(name string) (core.Params, error) {
	for i := range presets {
		if p := &presets[i]; p.name == name {
			return p.params(), nil
		}
	}
	return core.Params{}, fmt.Errorf("unknown preset %q (valid: %s)", name, strings.Join(PresetNames(), ", "))
}
