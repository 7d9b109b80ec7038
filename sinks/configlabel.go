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
	_, labels := ConfigIDsAndLabels(configs)
	return labels
}

// ConfigIDsAndLabels returns the rows' config_id (ConfigID) and
// config_label (ConfigLabels) of each parameter set of a sweep, building
// each set's texts once.
func ConfigIDsAndLabels(configs []core.Params) (ids, labels []string) {
	names := core.Names()
	texts := make([]map[string]string, len(configs))
	ids = make([]string, len(configs))
	for i, p := range configs {
		t := p.Texts()
		ids[i], texts[i] = configIDOf(core.CanonicalOf(names, t)), byName(names, t)
	}
	axes := SweptAxes(texts)
	labels = make([]string, len(configs))
	for i, t := range texts {
		labels[i] = ConfigLabel(t, axes)
	}
	return ids, labels
}

// ParamsText is every parameter of p as its text (core.Params.Get), by
// name.
func ParamsText(p core.Params) map[string]string {
	return paramsText(p, core.Names())
}

// paramsText is ParamsText with core.Names() given.
func paramsText(p core.Params, names []string) map[string]string { return byName(names, p.Texts()) }

// byName is texts (core.Params.Texts) by their names (core.Names).
func byName(names, texts []string) map[string]string {
	m := make(map[string]string, len(names))
	for i, t := range texts {
		m[names[i]] = t
	}
	return m
}

// SweptAxes are the parameters (core.Names order) with more than one
// value across the parameter sets given as text, except those where every
// set keeps its compat's default (the reference's fixed 600 s min-duration
// floor against our run-derived one): the label's compat already says so.
func SweptAxes(params []map[string]string) []string {
	names := core.Names()
	defaults := map[string]map[string]string{
		string(core.CompatSteadysweep): paramsText(core.DefaultParams(), names),
		string(core.CompatReference):   paramsText(core.ReferenceParams(), names)}
	var axes []string
	for _, n := range names {
		vals := map[string]bool{}
		compatOnly := n != "compat"
		for _, p := range params {
			vals[p[n]] = true
			d, ok := defaults[p["compat"]]
			compatOnly = compatOnly && ok && d[n] == p[n]
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
