package sweep

import (
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks"
)

func TestParseGrid(t *testing.T) {
	g, err := ParseGrid([]byte(`
alpha: [0.01, 0.05]
trend_gate: mann_kendall
window_sizes: [[4, 6, 8], [4]]
cov_bounds: ["0.03,0.05,0.08", "0.05"]
profile: ["", ~, concurrency]
min_duration: [true, false]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Axis{
		{"alpha", []string{"0.01", "0.05"}},
		{"trend_gate", []string{"mann_kendall"}},
		{"window_sizes", []string{"4,6,8", "4"}},
		{"cov_bounds", []string{"0.03,0.05,0.08", "0.05"}},
		{"profile", []string{"", "", "concurrency"}},
		{"min_duration", []string{"true", "false"}},
	}
	if len(g.Axes) != len(want) {
		t.Fatalf("axes: %+v", g.Axes)
	}
	for i := range want {
		if g.Axes[i].Name != want[i].Name || !slices.Equal(g.Axes[i].Values, want[i].Values) {
			t.Errorf("axis %d: %+v, want %+v", i, g.Axes[i], want[i])
		}
	}
	cs, err := g.Configs(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 2·1·2·2·3·2 = 48 products; profile "" twice collapses: 32 distinct.
	if len(cs) != 32 {
		t.Fatalf("configs: %d, want 32", len(cs))
	}
	first := cs[0]
	if first.Alpha != 0.01 || first.TrendGate != "mann_kendall" || !slices.Equal(first.WindowSizes, []int{4, 6, 8}) ||
		!slices.Equal(first.CovBounds, []float64{0.03, 0.05, 0.08}) || first.Profile != "" || !first.MinDuration {
		t.Errorf("first config: %+v", first)
	}
	last := cs[len(cs)-1]
	if last.Alpha != 0.05 || !slices.Equal(last.WindowSizes, []int{4}) || last.Profile != "concurrency" || last.MinDuration {
		t.Errorf("last config: %+v", last)
	}
}

func TestParseGridErrors(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string // substrings of the error
	}{
		{"unknown name lists valid", "alfa: [1]", []string{`unknown parameter "alfa"`, "valid: compat, method"}},
		{"bad int", "min_trend_n: [4, four]", []string{"min_trend_n", "not an integer"}},
		{"bad list item", "window_sizes: [[4, x]]", []string{"window_sizes", `item "x"`}},
		{"nested for scalar", "alpha: [[0.1]]", []string{"not a list parameter"}},
		{"mapping value", "alpha: {a: 1}", []string{"want a value"}},
		{"not a mapping", "- alpha", []string{"want a mapping"}},
		{"repeated axis", "alpha: [0.1]\nalpha: [0.2]", []string{"given twice"}},
		{"empty axis", "alpha: []", []string{"no values"}},
		{"all reported", "alfa: 1\nbeta: 2", []string{`"alfa"`, `"beta"`}},
		{"yaml syntax", "alpha: [", []string{"parse grid"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseGrid([]byte(tc.doc))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if g, err := ParseGrid(nil); err != nil || len(g.Axes) != 0 {
		t.Errorf("empty grid: %+v, %v", g, err)
	}
}

func TestConfigsPresetsAndSets(t *testing.T) {
	g, err := ParseGrid([]byte("alpha: [0.01, 0.05]\nwindow_sizes: [[4,6,8]]"))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := g.Configs([]string{"default,reference", "mser5"}, []string{"window_sizes=4,6,8;4", "min_trend_n=4,5"})
	if err != nil {
		t.Fatal(err)
	}
	// 3 presets × alpha 2 × window_sizes 2 (the --set replaced the grid's) × min_trend_n 2.
	if len(cs) != 24 {
		t.Fatalf("configs: %d, want 24", len(cs))
	}
	ids := map[string]bool{}
	methods := map[string]int{}
	for _, c := range cs {
		ids[sinks.ConfigID(c)] = true
		methods[string(c.Compat)+"/"+string(c.Method)]++
	}
	if len(ids) != 24 {
		t.Errorf("distinct ids: %d", len(ids))
	}
	if methods["steadysweep/steady"] != 8 || methods["reference/steady"] != 8 || methods["steadysweep/mser5"] != 8 {
		t.Errorf("presets: %v", methods)
	}
	if !slices.Equal(cs[1].WindowSizes, []int{4, 6, 8}) || cs[1].MinTrendN != 5 || !slices.Equal(cs[2].WindowSizes, []int{4}) {
		t.Errorf("odometer order: %+v %+v", cs[1], cs[2])
	}

	// Default preset alone; duplicates collapse.
	cs, err = Grid{}.Configs(nil, []string{"compat=steadysweep,steadysweep"})
	if err != nil || len(cs) != 1 || sinks.ConfigID(cs[0]) != sinks.ConfigID(core.DefaultParams()) {
		t.Fatalf("default: %d configs, %v", len(cs), err)
	}
	cs, err = Grid{}.Configs([]string{"total", "fixed-pct"}, nil)
	if err != nil || len(cs) != 2 || cs[0].Method != "total" || cs[1].Method != "fixed-pct" {
		t.Fatalf("peer presets: %+v, %v", cs, err)
	}
}

func TestConfigsErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		presets []string
		sets    []string
		want    []string
	}{
		{"unknown preset", []string{"fast"}, nil, []string{`unknown preset "fast"`, "default, reference, total, fixed-pct, mser5"}},
		{"bad choice lists choices", nil, []string{"trend_gate=mk,mann_kendall"}, []string{`trend_gate: "mk" is not one of`, `"theil_sen"`}},
		{"range", nil, []string{"alpha=0.05,1.5"}, []string{"alpha: must be in (0, 1), got 1.5"}},
		{"cross field", nil, []string{"fixed_warmup_pct=60", "fixed_cooldown_pct=50"}, []string{"together < 100"}},
		{"no equals", nil, []string{"alpha"}, []string{"want name=value"}},
		{"unknown set", nil, []string{"alfa=1"}, []string{`unknown parameter "alfa"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := Grid{}.Configs(tc.presets, tc.sets)
			if err == nil {
				t.Fatalf("no error, %d configs", len(cs))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	// Each distinct problem once.
	_, err := Grid{}.Configs(nil, []string{"alpha=2", "min_trend_n=4,5,6"})
	if n := strings.Count(err.Error(), "alpha: must be"); n != 1 {
		t.Errorf("alpha problem reported %d times: %v", n, err)
	}
	// Too many sets.
	_, err = Grid{}.Configs(nil, []string{"min_trend_n=" + strings.Repeat("4,", 400) + "4", "min_dur_kstar_floor=" + strings.Repeat("4,", 400) + "4"})
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("size cap: %v", err)
	}
}

func FuzzParseGrid(f *testing.F) {
	f.Add([]byte("alpha: [0.01, 0.05]\nwindow_sizes: [[4,6,8],[4]]"))
	f.Add([]byte(`cov_bounds: ["0.03,0.05,0.08", "0.05"]`))
	f.Add([]byte("profile: [~, concurrency]\nmin_duration: [true, false]"))
	f.Add([]byte("method: [steady, total]\nfixed_warmup_pct: [90]"))
	f.Add([]byte("- [a]: {b: c}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := ParseGrid(data)
		if err != nil {
			return
		}
		cs, err := g.Configs(nil, nil)
		if err != nil {
			return
		}
		ids := map[string]bool{}
		for _, c := range cs {
			if err := c.Validate(); err != nil {
				t.Fatalf("invalid config returned: %v", err)
			}
			if ids[sinks.ConfigID(c)] {
				t.Fatalf("duplicate config id %s", sinks.ConfigID(c))
			}
			ids[sinks.ConfigID(c)] = true
		}
		if len(cs) == 0 || len(cs) > MaxConfigs {
			t.Fatalf("%d configs from a valid grid", len(cs))
		}
	})
}
