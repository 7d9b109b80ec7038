package sweep

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"go.yaml.in/yaml/v3"
)

// MaxConfigs bounds the number of parameter sets one sweep may expand to.
const MaxConfigs = 100_000

// Axis is one swept parameter and its alternatives, each in the text form
// core.Params.Set accepts (lists comma-separated).
type Axis struct {
	Name   string
	Values []string
}

// Grid is an ordered set of axes; its parameter sets are the cartesian
// product of the axes (the first axis varies slowest).
type Grid struct {
	Axes []Axis
}

// ParseGrid parses a grid file: a YAML mapping of parameter name (as
// core.Names) to its alternatives, in file order.
//
//	alpha: [0.01, 0.05]              # two alternatives
//	trend_gate: mann_kendall         # a scalar is one alternative
//	window_sizes: [[4, 6, 8], [4]]   # list parameters: a list per alternative…
//	cov_bounds: ["0.03,0.05", "0.05"] # …or a comma string per alternative
//	profile: ["", concurrency]       # "" or ~ is the empty string
//
// For a list parameter a flat list of scalars is one-element lists
// (window_sizes: [4, 6] sweeps [4] and [6]). Unknown names, values that do
// not parse and repeated axes are reported together, with the valid names.
func ParseGrid(data []byte) (Grid, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Grid{}, fmt.Errorf("parse grid: %w", err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return Grid{}, nil // empty document
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return Grid{}, nil
	}
	if root.Kind != yaml.MappingNode {
		return Grid{}, fmt.Errorf("grid: line %d: want a mapping of parameter name to values", root.Line)
	}
	var g Grid
	var errs []error
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			errs = append(errs, fmt.Errorf("grid: line %d: parameter names must be scalars", k.Line))
			continue
		}
		vals, err := axisValues(k.Value, v)
		if err != nil {
			errs = append(errs, fmt.Errorf("grid: line %d: %w", v.Line, err))
			continue
		}
		if slices.ContainsFunc(g.Axes, func(a Axis) bool { return a.Name == k.Value }) {
			errs = append(errs, fmt.Errorf("grid: line %d: axis %s given twice", k.Line, k.Value))
			continue
		}
		g.Axes = append(g.Axes, Axis{Name: k.Value, Values: vals})
	}
	for _, a := range g.Axes {
		errs = append(errs, checkAxis(a)...)
	}
	if err := errors.Join(errs...); err != nil {
		return Grid{}, err
	}
	return g, nil
}

func axisValues(name string, v *yaml.Node) ([]string, error) {
	list := isListParam(name)
	switch v.Kind {
	case yaml.ScalarNode:
		return []string{scalarText(v)}, nil
	case yaml.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, alt := range v.Content {
			switch alt.Kind {
			case yaml.ScalarNode:
				out = append(out, scalarText(alt))
			case yaml.SequenceNode:
				if !list {
					return nil, fmt.Errorf("%s: nested list, but %s is not a list parameter", name, name)
				}
				items := make([]string, 0, len(alt.Content))
				for _, it := range alt.Content {
					if it.Kind != yaml.ScalarNode {
						return nil, fmt.Errorf("%s: list items must be scalars", name)
					}
					items = append(items, scalarText(it))
				}
				out = append(out, strings.Join(items, ","))
			default:
				return nil, fmt.Errorf("%s: alternatives must be scalars or lists", name)
			}
		}
		return out, nil
	default:
		return nil, fmt.Errorf("%s: want a value or a list of values", name)
	}
}

func scalarText(n *yaml.Node) string {
	if n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// checkAxis reports an unknown name, an empty axis and every value that
// does not parse as the parameter's type.
func checkAxis(a Axis) []error {
	if !slices.Contains(core.Names(), a.Name) {
		return []error{fmt.Errorf("unknown parameter %q (valid: %s)", a.Name, strings.Join(core.Names(), ", "))}
	}
	if len(a.Values) == 0 {
		return []error{fmt.Errorf("axis %s has no values", a.Name)}
	}
	var errs []error
	for _, v := range a.Values {
		p := core.DefaultParams()
		if err := p.Set(a.Name, v); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// isListParam reports whether the named parameter is a list.
func isListParam(name string) bool {
	for _, s := range core.ParamSpecs() {
		if s.Name == name {
			return s.Kind == core.KindInts || s.Kind == core.KindNumbers
		}
	}
	return false
}

// ParseSet parses one --set flag, "name=v1,v2,…": the alternatives of one
// axis. For list parameters the alternatives are separated by ";" and
// each is a comma list ("window_sizes=4,6,8;4" sweeps [4 6 8] and [4]).
func ParseSet(s string) (Axis, error) {
	name, vals, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Axis{}, fmt.Errorf("--set %q: want name=value[,value…]", s)
	}
	sep := ","
	if isListParam(name) {
		sep = ";"
	}
	a := Axis{Name: name, Values: strings.Split(vals, sep)}
	if err := errors.Join(checkAxis(a)...); err != nil {
		return Axis{}, fmt.Errorf("--set %s: %w", s, err)
	}
	return a, nil
}
