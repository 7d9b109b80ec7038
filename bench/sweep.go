package bench

import (
	"fmt"
	"strconv"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sweep"
)

// Configs returns n parameter sets (n a multiple of 10): the presets
// default and reference × 5 values of trend_rel_drift_min × n/10 values of
// warmup_band spread over [0.02, 0.20].
func Configs(n int) ([]core.Params, error) {
	if n < 10 || n%10 != 0 {
		return nil, fmt.Errorf("bench: %d configs: want a positive multiple of 10", n)
	}
	k := n / 10
	bands := make([]string, k)
	for i := range k {
		v := 0.05
		if k > 1 {
			v = 0.02 + 0.18*float64(i)/float64(k-1)
		}
		bands[i] = strconv.FormatFloat(v, 'g', 6, 64)
	}
	g := sweep.Grid{Axes: []sweep.Axis{
		{Name: "trend_rel_drift_min", Values: []string{"0.02", "0.035", "0.05", "0.075", "0.1"}},
		{Name: "warmup_band", Values: bands},
	}}
	cs, err := g.Configs([]string{"default", "reference"}, nil)
	if err != nil {
		return nil, err
	}
	if len(cs) != n {
		return nil, fmt.Errorf("bench: grid made %d configs, want %d", len(cs), n)
	}
	return cs, nil
}
