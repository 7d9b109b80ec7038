package sweep

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

// Configs expands the grid into parameter sets: for each preset (default
// "default"; an item may hold several names separated by commas), the
// cartesian product of the grid's axes and the --set axes (a --set axis
// replaces a grid axis of the same name). Sets with equal config ids are
// kept once, first occurrence first. Every invalid set is reported (each
// distinct problem once) and no sets are returned then.
func (g Grid) Configs(presetNames []string, sets []string) ([]core.Params, error) {
	configs, _, err := g.NamedConfigs(presetNames, sets)
	return configs, err
}

// NamedConfigs is Configs, also returning the name of the preset each set
// was built from (parallel to the sets; sweep.Options.Presets).
func (g Grid) NamedConfigs(presetNames []string, sets []string) ([]core.Params, []string, error) {
	var errs []error
	var bases []core.Params
	var baseNames []string
	for _, item := range presetNames {
		for name := range strings.SplitSeq(item, ",") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			p, err := Preset(name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			bases, baseNames = append(bases, p), append(baseNames, name)
		}
	}
	if len(bases) == 0 && len(errs) == 0 {
		bases, baseNames = []core.Params{core.DefaultParams()}, []string{"default"}
	}
	axes := slices.Clone(g.Axes)
	for _, s := range sets {
		a, err := ParseSet(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if i := slices.IndexFunc(axes, func(b Axis) bool { return b.Name == a.Name }); i >= 0 {
			axes[i] = a
		} else {
			axes = append(axes, a)
		}
	}
	for _, a := range axes {
		errs = append(errs, checkAxis(a)...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}

	n := len(bases)
	for _, a := range axes {
		n *= len(a.Values)
		if n > MaxConfigs {
			return nil, nil, fmt.Errorf("grid expands to more than %d parameter sets", MaxConfigs)
		}
	}
	var out []core.Params
	var names []string
	seen := map[string]bool{}
	problems := map[string]bool{}
	idx := make([]int, len(axes))
	for b, base := range bases {
		for {
			p := base
			p.WindowSizes = slices.Clone(p.WindowSizes)
			p.CovBounds = slices.Clone(p.CovBounds)
			for i, a := range axes {
				if err := p.Set(a.Name, a.Values[idx[i]]); err != nil {
					return nil, nil, fmt.Errorf("set %s: %w", a.Name, err) // checked above; not reached
				}
			}
			if err := p.Validate(); err != nil {
				for _, e := range unjoin(err) {
					if msg := e.Error(); !problems[msg] {
						problems[msg] = true
						errs = append(errs, e)
					}
				}
			} else if id := sinks.ConfigID(p); !seen[id] {
				seen[id] = true
				out, names = append(out, p), append(names, baseNames[b])
			}
			if !next(idx, axes) {
				break
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, nil, fmt.Errorf("invalid parameter sets: %w", err)
	}
	return out, names, nil
}

// next advances the odometer idx over axes (last axis fastest) and
// reports whether it did not wrap around.
func next(idx []int, axes []Axis) bool {
	for i := len(idx) - 1; i >= 0; i-- {
		idx[i]++
		if idx[i] < len(axes[i].Values) {
			return true
		}
		idx[i] = 0
	}
	return false
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
