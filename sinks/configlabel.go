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
// the sets' texts once (core.TextsOf) and reading them by index.
func ConfigIDsAndLabels(configs []core.Params) (ids, labels []string) {
	names := core.Names()
	texts := core.TextsOf(configs)
	index := make(map[string]int, len(names))
	for k, n := range names {
		index[n] = k
	}
	axes := sweptAxes(names, len(texts), func(i int, n string) string { return texts[i][index[n]] })
	ids, labels = make([]string, len(configs)), make([]string, len(configs))
	for i, t := range texts {
		ids[i] = configIDOf(core.CanonicalOf(names, t))
		labels[i] = configLabel(func(n string) string { return t[index[n]] }, axes)
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
	return sweptAxes(core.Names(), len(params), func(i int, n string) string { return params[i][n] })
}

// sweptAxes is SweptAxes of n sets whose parameter named name has the
// text text(i, name).
func sweptAxes(names []string, n int, text func(i int, name string) string) []string {
	defaults := map[string]map[string]string{
		string(core.CompatSteadysweep): paramsText(core.DefaultParams(), names),
		string(core.CompatReference):   paramsText(core.ReferenceParams(), names)}
	def := make([]map[string]string, n) // each set's compat's defaults (nil: none)
	for i := range n {
		def[i] = defaults[text(i, "compat")]
	}
	var axes []string
	for _, name := range names {
		varies := false
		compatOnly := name != "compat"
		for i := range n {
			v := text(i, name)
			varies = varies || v != text(0, name)
			compatOnly = compatOnly && def[i] != nil && def[i][name] == v
		}
		if varies && !compatOnly {
			axes = append(axes, name)
		}
	}
	return axes
}

// ConfigLabel is "<compat>[/<method>] axis=value…": the compat, the
// method unless it is the steady-state detector, and the value of each
// swept axis other than those two, its name abbreviated (Abbrev) and an
// empty value shown as "". Example: "steadysweep wb=0.03 md=false".
func ConfigLabel(params map[string]string, axes []string) string {
	return configLabel(func(n string) string { return params[n] }, axes)
}

// configLabel is ConfigLabel of the set whose parameter named n has the
// text text(n).
func configLabel(text func(n string) string, axes []string) string {
	parts := []string{text("compat")}
	if m := text("method"); m != "" && m != string(core.MethodSteady) {
		parts[0] += "/" + m
	}
	for _, a := range axes {
		if a == "compat" || a == "method" {
			continue
		}
		v := text(a)
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
