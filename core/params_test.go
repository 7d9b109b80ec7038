package core

import (
	"reflect"
	"strings"
	"testing"
)

// TestReferenceParamsDefaults checks ReferenceParams against the reference
// CLI's defaults of detector.md §2.8 (flags) and §14 (constants).
func TestReferenceParamsDefaults(t *testing.T) {
	p := ReferenceParams()
	want := Params{
		Compat:           "reference",
		Method:           "steady",
		Profile:          "",             // from the load pattern (§2.4)
		SuperpassSize:    0,              // dataset size (§2.6)
		WarmupMode:       "auto",         // --warmup auto
		WarmupBand:       0.05,           // --warmup-band
		WarmupMaxFrac:    0.5,            // §8.1 cap
		WarmupDriver:     "tpot_p50",     // profile driver
		WindowSizes:      []int{4, 6, 8}, // CLI window sizes
		CovBounds:        nil,            // profile bounds
		TrendGate:        "mk_hamed_rao", // --trend-gate
		Alpha:            0.05,           // α
		TrendRelDriftMin: 0.05,           // TREND_REL_DRIFT_MIN
		MinTrendN:        4,              // MIN_TREND_N
		MinDuration:      true,           // gate enforced
		MinDurEps:        0.05,           // MIN_DUR_EPS
		MinDurRelaxMult:  5.0,            // MIN_DUR_RELAX_MULT
		MinDurFloorS:     600.0,          // MIN_DUR_FLOOR_S
		MinDurKstarFloor: 4,              // MIN_DUR_KSTAR_FLOOR
		LevelShiftBand:   0.05,           // level-shift band
		DriftGuard:       true,           // not in the reference (deviation D14)
		TailShift:        true,           // idem (D15)
		TailShiftMinSP:   2,              // idem
		TailShiftSDs:     3,              // idem
		WindowStart:      "head",         // idem (D16; "mser" is D12)
		HeadTrimZ:        2,              // idem (D16)
		HeadTrimMinRel:   0.005,          // idem
		HeadTrimMaxFrac:  0.25,           // idem
		TailCutEps:       0.05,           // not in the reference (design §5.4)
		TailCutDelta:     0.05,           // idem
		FixedWarmupPct:   10,             // fixed-pct baseline only
		FixedCooldownPct: 10,             // idem
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("ReferenceParams() =\n%+v\nwant\n%+v", p, want)
	}
	if err := p.Validate(); err != nil {
		t.Errorf("ReferenceParams invalid: %v", err)
	}
	// Profile default bounds (§2.4).
	for name, bounds := range map[string][]float64{
		"concurrency": {0.03, 0.05, 0.08}, "poisson": {0.03, 0.05, 0.08}, "offline": {0.03, 0.05, 0.08},
		"unknown": {0.03, 0.05, 0.08}, "agentic": {0.10, 0.15},
	} {
		pr, ok := LookupProfile(name)
		if !ok || !reflect.DeepEqual(pr.CovBounds, bounds) {
			t.Errorf("profile %s bounds %v, want %v", name, pr.CovBounds, bounds)
		}
	}
}

const referenceCanonical = `compat=reference
method=steady
profile=
superpass_size=0
warmup_mode=auto
warmup_fixed=0
warmup_band=0.05
warmup_max_frac=0.5
warmup_driver=tpot_p50
window_sizes=4,6,8
cov_bounds=
trend_gate=mk_hamed_rao
alpha=0.05
trend_rel_drift_min=0.05
min_trend_n=4
min_duration=true
min_dur_eps=0.05
min_dur_relax_mult=5
min_dur_floor_s=600
min_dur_kstar_floor=4
level_shift_band=0.05
drift_guard=true
tail_shift=true
tail_shift_min_sp=2
tail_shift_sds=3
window_start=head
head_trim_z=2
head_trim_min_rel=0.005
head_trim_max_frac=0.25
tail_cut_eps=0.05
tail_cut_delta=0.05
fixed_warmup_pct=10
fixed_cooldown_pct=10
submission_min_duration_s=0
`

// TestParamsCanonical pins the canonical text the rows' config_id hashes
// (sinks.ConfigID, tested there) and checks that the parameter table lists
// every field of Params in declaration order (checkTableIsStruct).
func TestParamsCanonical(t *testing.T) {
	p := ReferenceParams()
	if got := string(p.Canonical()); got != referenceCanonical {
		t.Errorf("Canonical() =\n%s\nwant\n%s", got, referenceCanonical)
	}
	q := p
	q.WindowSizes = []int{4, 6, 9}
	if string(q.Canonical()) == string(p.Canonical()) {
		t.Error("different params share a canonical text")
	}
	checkTableIsStruct(t)
}

// checkTableIsStruct checks that the parameter table lists every field of
// Params once, in declaration order: setting the table's i-th parameter
// (its text from its kind) changes field i of a zero Params and no other,
// and the typed accessor of its kind points at that field.
func checkTableIsStruct(t *testing.T) {
	t.Helper()
	typ := reflect.TypeFor[Params]()
	specs := ParamSpecs()
	if len(specs) != typ.NumField() {
		t.Fatalf("%d parameters for %d fields", len(specs), typ.NumField())
	}
	text := map[string]string{KindText: "x", KindInteger: "7", KindNumber: "0.5", KindBool: "true",
		KindInts: "3", KindNumbers: "0.5"}
	for i, s := range specs {
		var p Params
		if err := s.SetText(&p, text[s.Kind]); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		v := reflect.ValueOf(p)
		for j := range typ.NumField() {
			if changed := !v.Field(j).IsZero(); changed != (i == j) {
				t.Errorf("setting parameter %d (%s) changed field %s: %v", i, s.Name, typ.Field(j).Name, changed)
			}
		}
		addr := map[string]any{KindInteger: s.Int(&p), KindNumber: s.Float(&p), KindBool: s.Bool(&p)}[s.Kind]
		if addr != nil {
			field := reflect.ValueOf(&p).Elem().Field(i).Addr().Interface()
			if addr != field {
				t.Errorf("%s: its %s accessor does not point at field %s", s.Name, s.Kind, typ.Field(i).Name)
			}
		}
	}
}

func TestParamsSetGetRoundTrip(t *testing.T) {
	src := ReferenceParams()
	src.CovBounds = []float64{0.1, 0.15}
	src.MinDuration = false
	src.WarmupFixed = 3
	var dst Params
	for _, name := range Names() {
		v, err := src.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := dst.Set(name, v); err != nil {
			t.Fatalf("Set(%s, %q): %v", name, v, err)
		}
		if got, _ := dst.Get(name); got != v {
			t.Errorf("%s: Get after Set = %q, want %q", name, got, v)
		}
	}
	if !reflect.DeepEqual(src, dst) {
		t.Errorf("round trip:\n%+v\nwant\n%+v", dst, src)
	}
	if err := dst.Set("window_sizes", " 4, ,8 "); err != nil || !reflect.DeepEqual(dst.WindowSizes, []int{4, 8}) {
		t.Errorf("blank list items: %v %v", dst.WindowSizes, err)
	}
	if err := dst.Set("nope", "1"); err == nil || !strings.Contains(err.Error(), "unknown parameter") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestAnalyzeRejectsInvalid(t *testing.T) {
	sps := mkSeries(repeatLevel(100, 50, 8), 40)
	p := ReferenceParams()
	p.WarmupMode, p.WarmupFixed = "fixed", -1 // the reference: ValueError("warmup must be >= 0")
	if _, err := analyzeRollups(sps, testInfo, p); err == nil {
		t.Error("negative fixed warmup accepted")
	}
	for _, info := range []RunInfo{{}, {DatasetSize: -3}} {
		if _, err := analyzeRollups(sps, info, ReferenceParams()); err != ErrSuperpassSize {
			t.Errorf("dataset size %d: err %v, want ErrSuperpassSize", info.DatasetSize, err)
		}
		if _, err := analyze(&Samples{}, info, ReferenceParams()); err != ErrSuperpassSize {
			t.Errorf("Analyze dataset size %d: err %v, want ErrSuperpassSize", info.DatasetSize, err)
		}
	}
	if ErrSuperpassSize.Error() != "could not resolve dataset/super-pass size; pass --dataset-size or --superpass-size" {
		t.Errorf("message %q", ErrSuperpassSize)
	}
	// Empty input is not an error (§2.9): no super-passes, not found.
	r, err := analyze(&Samples{}, testInfo, ReferenceParams())
	if err != nil || r.NSuperPasses != 0 || r.NPostWarmup != 0 || r.Steady.Found {
		t.Errorf("empty run: %+v %v", r, err)
	}
}

// TestParamsValidateAccuracyRules: each threshold of the accuracy rules
// (D14–D16) out of range is reported under its name.
func TestParamsValidateAccuracyRules(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*Params)
	}{
		{"tail_shift_min_sp", func(p *Params) { p.TailShiftMinSP = 0 }},
		{"tail_shift_sds", func(p *Params) { p.TailShiftSDs = 0 }},
		{"window_start", func(p *Params) { p.WindowStart = "knee" }},
		{"head_trim_z", func(p *Params) { p.HeadTrimZ = -1 }},
		{"head_trim_min_rel", func(p *Params) { p.HeadTrimMinRel = -0.1 }},
		{"head_trim_max_frac", func(p *Params) { p.HeadTrimMaxFrac = 1 }},
	} {
		p := DefaultParams()
		c.set(&p)
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), c.name+":") {
			t.Errorf("%s: Validate() = %v, want an error naming it", c.name, err)
		}
	}
	p := DefaultParams()
	if err := p.Set("window_start", "mser"); err != nil || p.WindowStart != WindowStartMSER || p.Validate() != nil {
		t.Errorf("window_start=mser: %v %v", err, p.WindowStart)
	}
}

// TestValidateProfileNames: an unknown profile is refused with the valid
// names, and "" (derive from the run) is valid but never offered as one
// (issue 20: `--profile weird` listed "").
func TestValidateProfileNames(t *testing.T) {
	p := DefaultParams()
	p.Profile = "weird"
	err := p.Validate()
	if err == nil {
		t.Fatal("profile weird accepted")
	}
	msg := err.Error()
	if strings.Contains(msg, `""`) || !strings.Contains(msg, `"weird" is not one of "concurrency", "poisson"`) {
		t.Errorf("error %q: want the valid names and no empty one", msg)
	}
	p.Profile = ""
	if err := p.Validate(); err != nil {
		t.Errorf("empty profile (derived): %v", err)
	}
}

// TestParamsTexts: Texts is Get of every name in Names order, for both
// presets and a set with a list and a float changed.
func TestParamsTexts(t *testing.T) {
	changed := DefaultParams()
	changed.Alpha, changed.WindowSizes = 0.0123, []int{5, 9}
	for _, p := range []Params{DefaultParams(), ReferenceParams(), changed} {
		texts, names := p.Texts(), Names()
		if len(texts) != len(names) {
			t.Fatalf("%d texts for %d names", len(texts), len(names))
		}
		for i, n := range names {
			if want, err := p.Get(n); err != nil || texts[i] != want {
				t.Errorf("Texts()[%d] (%s) = %q, Get = %q (%v)", i, n, texts[i], want, err)
			}
		}
	}
}
