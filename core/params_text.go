package core

import (
	"fmt"
	"strconv"
	"strings"
)

// paramField is one sweepable parameter: its name (the field's `param`
// tag) and its text form. The table below lists the fields of Params in
// declaration order (a test checks it against the struct).
type paramField struct {
	name string
	get  func(p *Params) string
	set  func(p *Params, value string) error
}

func paramFields() []paramField {
	return []paramField{
		enumParam("compat", func(p *Params) *Compat { return &p.Compat }),
		enumParam("method", func(p *Params) *Method { return &p.Method }),
		enumParam("profile", func(p *Params) *string { return &p.Profile }),
		intParam("superpass_size", func(p *Params) *int { return &p.SuperpassSize }),
		enumParam("warmup_mode", func(p *Params) *WarmupMode { return &p.WarmupMode }),
		intParam("warmup_fixed", func(p *Params) *int { return &p.WarmupFixed }),
		floatParam("warmup_band", func(p *Params) *float64 { return &p.WarmupBand }),
		floatParam("warmup_max_frac", func(p *Params) *float64 { return &p.WarmupMaxFrac }),
		enumParam("warmup_driver", func(p *Params) *string { return &p.WarmupDriver }),
		listParam("window_sizes", func(p *Params) *[]int { return &p.WindowSizes }, parseInt, "an integer", strconv.Itoa),
		listParam("cov_bounds", func(p *Params) *[]float64 { return &p.CovBounds }, parseFloat, "a number", formatFloat),
		enumParam("trend_gate", func(p *Params) *TrendGate { return &p.TrendGate }),
		floatParam("alpha", func(p *Params) *float64 { return &p.Alpha }),
		floatParam("trend_rel_drift_min", func(p *Params) *float64 { return &p.TrendRelDriftMin }),
		intParam("min_trend_n", func(p *Params) *int { return &p.MinTrendN }),
		boolParam("min_duration", func(p *Params) *bool { return &p.MinDuration }),
		floatParam("min_dur_eps", func(p *Params) *float64 { return &p.MinDurEps }),
		floatParam("min_dur_relax_mult", func(p *Params) *float64 { return &p.MinDurRelaxMult }),
		floatParam("min_dur_floor_s", func(p *Params) *float64 { return &p.MinDurFloorS }),
		intParam("min_dur_kstar_floor", func(p *Params) *int { return &p.MinDurKstarFloor }),
		floatParam("level_shift_band", func(p *Params) *float64 { return &p.LevelShiftBand }),
		boolParam("drift_guard", func(p *Params) *bool { return &p.DriftGuard }),
		boolParam("tail_shift", func(p *Params) *bool { return &p.TailShift }),
		intParam("tail_shift_min_sp", func(p *Params) *int { return &p.TailShiftMinSP }),
		floatParam("tail_shift_sds", func(p *Params) *float64 { return &p.TailShiftSDs }),
		enumParam("window_start", func(p *Params) *WindowStart { return &p.WindowStart }),
		floatParam("head_trim_z", func(p *Params) *float64 { return &p.HeadTrimZ }),
		floatParam("head_trim_min_rel", func(p *Params) *float64 { return &p.HeadTrimMinRel }),
		floatParam("head_trim_max_frac", func(p *Params) *float64 { return &p.HeadTrimMaxFrac }),
		floatParam("tail_cut_eps", func(p *Params) *float64 { return &p.TailCutEps }),
		floatParam("tail_cut_delta", func(p *Params) *float64 { return &p.TailCutDelta }),
		floatParam("fixed_warmup_pct", func(p *Params) *float64 { return &p.FixedWarmupPct }),
		floatParam("fixed_cooldown_pct", func(p *Params) *float64 { return &p.FixedCooldownPct }),
		floatParam("submission_min_duration_s", func(p *Params) *float64 { return &p.SubmissionMinDurationS }),
	}
}

// enumParam is a string-typed parameter, set as written (Validate checks
// the spelling).
func enumParam[E ~string](name string, f func(*Params) *E) paramField {
	return paramField{name,
		func(p *Params) string { return string(*f(p)) },
		func(p *Params, v string) error { *f(p) = E(v); return nil }}
}

func intParam(name string, f func(*Params) *int) paramField {
	return paramField{name,
		func(p *Params) string { return strconv.Itoa(*f(p)) },
		func(p *Params, v string) error {
			n, err := parseInt(v)
			if err != nil {
				return paramError(name, v, "not an integer")
			}
			*f(p) = n
			return nil
		}}
}

func floatParam(name string, f func(*Params) *float64) paramField {
	return paramField{name,
		func(p *Params) string { return formatFloat(*f(p)) },
		func(p *Params, v string) error {
			x, err := parseFloat(v)
			if err != nil {
				return paramError(name, v, "not a number")
			}
			*f(p) = x
			return nil
		}}
}

func boolParam(name string, f func(*Params) *bool) paramField {
	return paramField{name,
		func(p *Params) string { return strconv.FormatBool(*f(p)) },
		func(p *Params, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return paramError(name, v, "not a boolean (true/false)")
			}
			*f(p) = b
			return nil
		}}
}

// listParam is a comma-separated list; blank items are skipped (as the
// reference's list flags do).
func listParam[T any](name string, f func(*Params) *[]T, parse func(string) (T, error), what string,
	format func(T) string) paramField {
	return paramField{name,
		func(p *Params) string {
			parts := make([]string, len(*f(p)))
			for i, x := range *f(p) {
				parts[i] = format(x)
			}
			return strings.Join(parts, ",")
		},
		func(p *Params, v string) error {
			items := splitList(v)
			out := make([]T, 0, len(items))
			for _, it := range items {
				x, err := parse(it)
				if err != nil {
					return paramError(name, v, fmt.Sprintf("item %q is not %s", it, what))
				}
				out = append(out, x)
			}
			*f(p) = out
			return nil
		}}
}

func parseInt(s string) (int, error)       { return strconv.Atoi(s) }
func parseFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }
func formatFloat(x float64) string         { return strconv.FormatFloat(x, 'g', -1, 64) }

func paramError(name, value, why string) error {
	return fmt.Errorf("parameter %s: %q: %s", name, value, why)
}

// splitList splits a comma list, trimming items and skipping blank ones.
func splitList(s string) []string {
	var out []string
	for it := range strings.SplitSeq(s, ",") {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

// Names returns the sweepable parameter names in declaration order.
func Names() []string {
	fields := paramFields()
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return names
}

func lookupParam(name string) (paramField, error) {
	for _, f := range paramFields() {
		if f.name == name {
			return f, nil
		}
	}
	return paramField{}, fmt.Errorf("unknown parameter %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// Get returns the canonical text of the named parameter.
func (p Params) Get(name string) (string, error) {
	f, err := lookupParam(name)
	if err != nil {
		return "", err
	}
	return f.get(&p), nil
}

// Texts returns the canonical text of every parameter in Names order:
// Get of each name, in one pass over the fields (Get looks its name up
// among them, so a loop of Get over Names is quadratic in the fields — a
// third of a wide sweep's time when it labelled its configs that way).
func (p Params) Texts() []string {
	fields := paramFields()
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.get(&p)
	}
	return out
}

// Set parses value into the named parameter. Lists are comma-separated;
// blank items are skipped. It does not validate ranges (see Validate).
func (p *Params) Set(name, value string) error {
	f, err := lookupParam(name)
	if err != nil {
		return err
	}
	return f.set(p, strings.TrimSpace(value))
}

// Canonical returns the stable text encoding of p: one "name=value" line
// per parameter in declaration order, values in their canonical text.
// Equal parameter sets encode to equal bytes; the sweep hashes it into the
// rows' config_id (sinks.ConfigID).
func (p Params) Canonical() []byte {
	var b strings.Builder
	for _, f := range paramFields() {
		b.WriteString(f.name)
		b.WriteByte('=')
		b.WriteString(f.get(&p))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
