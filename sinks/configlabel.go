package sinks

import (
	"strings"

	"github.com/steadysweep/steadysweep/core"
)

// ConfigLabels returns the rows' config_label of each parameter set of a
// sweep: ConfigLabel over the parameters that differ between them
// (SweptAxes). Labels read well in a table; config_id stays the identity
// (a label depends on which sets were swept together).
func ConfigLabels(configs []core.Params) []string {
	texts := make([]map[string]string, len(configs))
	for i, p := range configs {
		texts[i] = ParamsText(p)
	}
	axes := SweptAxes(texts)
	labels := make([]string, len(configs))
	for i, t := range texts {
		labels[i] = ConfigLabel(t, axes)
	}
	return labels
}

// ParamsText is every parameter of p as its text (core.Params.Get), by
// name.
func ParamsText(p core.Params) map[string]string {
	m := make(map[string]string, len(core.Names()))
	for _, n := range core.Names() {
		m[n], _ = p.Get(n)
	}
	return m
}

// SweptAxes are the parameters (core.Names order) with more than one
// value across the parameter sets given as text, except those where every
// set keeps its compat's default (the reference's fixed 600 s min-duration
// floor against our run-derived one): the label's compat already says so.
func SweptAxes(params []map[string]string) []string {
	defaults := map[string]core.Params{
		string(core.CompatSteadysweep): core.DefaultParams(), string(core.CompatReference): core.ReferenceParams()}
	var axes []string
	for _, n := range core.Names() {
		vals := map[string]bool{}
		compatOnly := n != "compat"
		for _, p := range params {
			vals[p[n]] = true
			d, ok := defaults[p["compat"]]
			v, _ := d.Get(n)
			compatOnly = compatOnly && ok && v == p[n]
		}
		if len(vals) > 1 && !compatOnly {
			axes = append(axes, n)
		}
	}
	return axes
}

// ConfigLabel is "<compat>[/<method>] axis=value…": the compat, the
// method unless it is the steady-state detector, and the value of each
// swept axis other than those two, its name abbreviated (Abbrev) and an
// empty value shown as "". Example: "steadysweep wb=0.03 md=false".
func ConfigLabel(params map[string]string, axes []string) string {
	parts := []string{params["compat"]}
	if m := params["method"]; m != "" && m != string(core.MethodSteady) {
		parts[0] += "/" + m
	}
	for _, a := range axes {
		if a == "compat" || a == "method" {
			continue
		}
		v := params[a]
		if v == "" {
			v = `""`
		}
		parts = append(parts, Abbrev(a)+"="+v)
	}
	return strings.Join(parts, " ")
}

// Abbrev abbreviates a parameter name by the initials of its words:
// warmup_band → wb, min_duration → md.
func Abbrev(name string) string {
	var b strings.Builder
	for w := range strings.SplitSeq(name, "_") {
		if w != "" {
			b.WriteByte(w[0])
		}
	}
	return b.String()
}
