package core

import (
	"fmt"
	"strconv"
	"strings"
)

// paramField is one sweepable parameter: its name, its text form, its
// kind, its field in its own type (for the rows schema's typed columns)
// and what the help, the flags and the rows schema say of it. The table
// below is the one description of Params: it lists the fields in
// declaration order (a test checks it against the struct) and ParamSpecs
// exports it.
type paramField struct {
	name string
	kind string
	about
	get func(p *Params) string
	set func(p *Params, value string) error
	// ints, floats and bools are the field itself for the kinds
	// KindInteger, KindNumber and KindBool; nil for the others.
	ints   func(p *Params) *int
	floats func(p *Params) *float64
	bools  func(p *Params) *bool
}

// about is what a parameter's entry says of it: its unit ("" for text,
// switches and plain numbers), the analyze flag that sets it besides
// --set ("" for none) and its meaning.
type about struct{ unit, flag, doc string }

// The kinds of parameter (ParamSpec.Kind).
const (
	KindText    = "text"
	KindInteger = "integer"
	KindNumber  = "number"
	KindBool    = "boolean"
	KindInts    = "list of integers"
	KindNumbers = "list of numbers"
)

// ParamSpec describes one parameter, as the help, the flags, the rows
// schema and the report's settings all show it.
type ParamSpec struct {
	// Name is the parameter's name (--set NAME=…, its rows column).
	Name string
	// Kind is one of the Kind constants.
	Kind string
	// Unit is its unit ("" for text, switches and plain numbers).
	Unit string
	// Flag is the analyze flag that sets it besides --set, "" for none.
	Flag string
	// Doc is its meaning, one line.
	Doc string
	// Default and Reference are its text under DefaultParams and
	// ReferenceParams.
	Default, Reference string
	field              paramField
}

// Text is the parameter's canonical text in p (Params.Get).
func (s ParamSpec) Text(p *Params) string { return s.field.get(p) }

// SetText parses value, as written, into the parameter in p (Params.Set
// trims it first).
func (s ParamSpec) SetText(p *Params, value string) error { return s.field.set(p, value) }

// Int is the parameter's field in p when its Kind is KindInteger, else nil.
func (s ParamSpec) Int(p *Params) *int { return call(s.field.ints, p) }

// Float is the parameter's field in p when its Kind is KindNumber, else nil.
func (s ParamSpec) Float(p *Params) *float64 { return call(s.field.floats, p) }

// Bool is the parameter's field in p when its Kind is KindBool, else nil.
func (s ParamSpec) Bool(p *Params) *bool { return call(s.field.bools, p) }

func call[T any](f func(*Params) *T, p *Params) *T {
	if f == nil {
		return nil
	}
	return f(p)
}

// ParamSpecs returns every parameter's description, in Names order.
func ParamSpecs() []ParamSpec {
	d, r := DefaultParams(), ReferenceParams()
	fields := paramFields()
	out := make([]ParamSpec, len(fields))
	for i, f := range fields {
		out[i] = ParamSpec{Name: f.name, Kind: f.kind, Unit: f.unit, Flag: f.flag, Doc: f.doc,
			Default: f.get(&d), Reference: f.get(&r), field: f}
	}
	return out
}

func paramFields() []paramField {
	return []paramField{
		enumParam("compat", func(p *Params) *Compat { return &p.Compat },
			about{"", "--compat", "detector behaviour: steadysweep, or reference (exactly the reference at 40b78bfe); chooses the other defaults"}),
		enumParam("method", func(p *Params) *Method { return &p.Method },
			about{"", "", "steady (the steady-state detector) or a peer baseline: total, fixed-pct, mser5, aiperf, vllm-bench, sglang, guidellm"}),
		enumParam("profile", func(p *Params) *string { return &p.Profile },
			about{"", "--profile", "workload profile forced on the run (" + strings.Join(ProfileNames(), ", ") + "); empty derives it from the run"}),
		intParam("superpass_size", func(p *Params) *int { return &p.SuperpassSize },
			about{"samples", "--superpass-size", "super-pass size; 0 uses the dataset size (agentic: trajectories per super-pass, 0 = 32)"}),
		enumParam("warmup_mode", func(p *Params) *WarmupMode { return &p.WarmupMode },
			about{"", "--warmup", "warmup crop: auto (adaptive) or fixed (warmup_fixed super-passes)"}),
		intParam("warmup_fixed", func(p *Params) *int { return &p.WarmupFixed },
			about{"super-passes", "--warmup", "super-passes cropped under warmup_mode fixed"}),
		floatParam("warmup_band", func(p *Params) *float64 { return &p.WarmupBand },
			about{"fraction 0–1", "--warmup-band", "auto warmup crops leading super-passes off the back-half median by more than this"}),
		floatParam("warmup_max_frac", func(p *Params) *float64 { return &p.WarmupMaxFrac },
			about{"fraction 0–1", "", "cap of the auto warmup crop, as a share of the series"}),
		enumParam("warmup_driver", func(p *Params) *string { return &p.WarmupDriver },
			about{"", "--warmup-driver", "metric driving auto warmup (a metric key such as tpot_p50)"}),
		listParam("window_sizes", func(p *Params) *[]int { return &p.WindowSizes }, parseInt, KindInts, strconv.Itoa,
			about{"super-passes", "--window-sizes", "diagnostic window sizes, a comma list"}),
		listParam("cov_bounds", func(p *Params) *[]float64 { return &p.CovBounds }, parseFloat, KindNumbers, formatFloat,
			about{"CoV", "--cov-bounds", "CoV bounds, a comma list (admissibility uses the loosest); empty takes the profile's"}),
		enumParam("trend_gate", func(p *Params) *TrendGate { return &p.TrendGate },
			about{"", "--trend-gate", "trend test gating admissibility: mk_hamed_rao, mann_kendall, newey_west, theil_sen, slope_vs_scatter"}),
		floatParam("alpha", func(p *Params) *float64 { return &p.Alpha },
			about{"probability", "", "significance level of every test"}),
		floatParam("trend_rel_drift_min", func(p *Params) *float64 { return &p.TrendRelDriftMin },
			about{"fraction 0–1", "", "a significant trend breaks a window only with at least this relative drift"}),
		intParam("min_trend_n", func(p *Params) *int { return &p.MinTrendN },
			about{"super-passes", "", "fewest points of a trend test, and the shortest plateau"}),
		boolParam("min_duration", func(p *Params) *bool { return &p.MinDuration },
			about{"", "--no-min-duration", "enforce the minimum-duration gate (--no-min-duration: false)"}),
		floatParam("min_dur_eps", func(p *Params) *float64 { return &p.MinDurEps },
			about{"fraction 0–1", "", "precision target ε of k* = ⌈(1.96·CoV/ε)²⌉"}),
		floatParam("min_dur_relax_mult", func(p *Params) *float64 { return &p.MinDurRelaxMult },
			about{"×", "", "multiple of the p90 e2e latency in the relaxation term"}),
		floatParam("min_dur_floor_s", func(p *Params) *float64 { return &p.MinDurFloorS },
			about{"s", "--min-duration-floor", "wall-time floor of the minimum-duration gate; 0 takes min(600 s, config.yaml's min_duration_ms), else 600 s"}),
		intParam("min_dur_kstar_floor", func(p *Params) *int { return &p.MinDurKstarFloor },
			about{"super-passes", "", "floor of k* and precision exemption"}),
		floatParam("level_shift_band", func(p *Params) *float64 { return &p.LevelShiftBand },
			about{"fraction 0–1", "", "relative TPOT difference that makes a later plateau a level shift"}),
		boolParam("drift_guard", func(p *Params) *bool { return &p.DriftGuard },
			about{"", "", "withdraw a certified window when a gating metric drifts to the run's end (deviation D14)"}),
		boolParam("tail_shift", func(p *Params) *bool { return &p.TailShift },
			about{"", "", "flag a short tail after the plateau whose TPOT level differs (deviation D15)"}),
		intParam("tail_shift_min_sp", func(p *Params) *int { return &p.TailShiftMinSP },
			about{"super-passes", "", "full super-passes beyond the band a tail shift needs"}),
		floatParam("tail_shift_sds", func(p *Params) *float64 { return &p.TailShiftSDs },
			about{"SDs", "", "residual standard deviations a tail shift lies away"}),
		enumParam("window_start", func(p *Params) *WindowStart { return &p.WindowStart },
			about{"", "", "how the window's settling head is trimmed: head (deviation D16) or mser (D12)"}),
		floatParam("head_trim_z", func(p *Params) *float64 { return &p.HeadTrimZ },
			about{"SDs", "", "robust SDs off the rest's median that trim a leading super-pass"}),
		floatParam("head_trim_min_rel", func(p *Params) *float64 { return &p.HeadTrimMinRel },
			about{"fraction 0–1", "", "relative difference a trimmed leading super-pass also needs"}),
		floatParam("head_trim_max_frac", func(p *Params) *float64 { return &p.HeadTrimMaxFrac },
			about{"fraction 0–1", "", "most of the window the head trim may drop"}),
		floatParam("tail_cut_eps", func(p *Params) *float64 { return &p.TailCutEps },
			about{"fraction 0–1", "", "drain-tail cut applies iff σ/μ of per-sample ITL is at most this"}),
		floatParam("tail_cut_delta", func(p *Params) *float64 { return &p.TailCutDelta },
			about{"fraction 0–1", "", "… and |μ − m|/μ is at most this"}),
		floatParam("fixed_warmup_pct", func(p *Params) *float64 { return &p.FixedWarmupPct },
			about{"%", "", "fixed-pct baseline: tracked samples cropped at the start"}),
		floatParam("fixed_cooldown_pct", func(p *Params) *float64 { return &p.FixedCooldownPct },
			about{"%", "", "fixed-pct baseline: tracked samples cropped at the end"}),
		floatParam("submission_min_duration_s", func(p *Params) *float64 { return &p.SubmissionMinDurationS },
			about{"s", "", "region minimum duration of the submission block's window; 0: 600 s, 1200 s above concurrency 32"}),
	}
}

// enumParam is a string-typed parameter, set as written (Validate checks
// the spelling).
func enumParam[E ~string](name string, f func(*Params) *E, a about) paramField {
	return paramField{name: name, kind: KindText, about: a,
		get: func(p *Params) string { return string(*f(p)) },
		set: func(p *Params, v string) error { *f(p) = E(v); return nil }}
}

func intParam(name string, f func(*Params) *int, a about) paramField {
	pf := scalarParam(name, KindInteger, "an integer", f, parseInt, strconv.Itoa, a)
	pf.ints = f
	return pf
}

func floatParam(name string, f func(*Params) *float64, a about) paramField {
	pf := scalarParam(name, KindNumber, "a number", f, parseFloat, formatFloat, a)
	pf.floats = f
	return pf
}

func boolParam(name string, f func(*Params) *bool, a about) paramField {
	pf := scalarParam(name, KindBool, "a boolean (true/false)", f, strconv.ParseBool, strconv.FormatBool, a)
	pf.bools = f
	return pf
}

// scalarParam is a one-value parameter of the given kind: its text is
// format's, and a value parse refuses is "not " + what.
func scalarParam[T any](name, kind, what string, f func(*Params) *T, parse func(string) (T, error),
	format func(T) string, a about) paramField {
	return paramField{name: name, kind: kind, about: a,
		get: func(p *Params) string { return format(*f(p)) },
		set: func(p *Params, v string) error {
			x, err := parse(v)
			if err != nil {
				return paramError(name, v, "not "+what)
			}
			*f(p) = x
			return nil
		}}
}

// listParam is a comma-separated list; blank items are skipped (as the
// reference's list flags do), and no item is the nil list.
func listParam[T any](name string, f func(*Params) *[]T, parse func(string) (T, error), kind string,
	format func(T) string, a about) paramField {
	what := map[string]string{KindInts: "an integer", KindNumbers: "a number"}[kind]
	return paramField{name: name, kind: kind, about: a,
		get: func(p *Params) string {
			parts := make([]string, len(*f(p)))
			for i, x := range *f(p) {
				parts[i] = format(x)
			}
			return strings.Join(parts, ",")
		},
		set: func(p *Params, v string) error {
			items := splitList(v)
			var out []T // nil when empty, as the defaults' empty lists are
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
	return textsOf(paramFields(), func(f paramField) string { return f.name })
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
	return textsOf(paramFields(), func(f paramField) string { return f.get(&p) })
}

// TextsOf is Texts of each of ps, the parameters' table built once (a
// sweep labels and identifies every set).
func TextsOf(ps []Params) [][]string {
	fields := paramFields()
	out := make([][]string, len(ps))
	for i, p := range ps {
		out[i] = make([]string, len(fields))
		for k, f := range fields {
			out[i][k] = f.get(&p)
		}
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
	fields := paramFields()
	names, texts := make([]string, len(fields)), make([]string, len(fields))
	for i, f := range fields {
		names[i], texts[i] = f.name, f.get(&p)
	}
	return CanonicalOf(names, texts)
}

// CanonicalOf is Canonical of the parameter set whose Texts are texts,
// names being Names(): a caller that has both (a sweep's rows: labels and
// config ids) builds the parameters' texts once.
func CanonicalOf(names, texts []string) []byte {
	n := 0
	for i := range names {
		n += len(names[i]) + len(texts[i]) + 2
	}
	b := make([]byte, 0, n)
	for i := range names {
		b = append(append(append(append(b, names[i]...), '='), texts[i]...), '\n')
	}
	return b
}
