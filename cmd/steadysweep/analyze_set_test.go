package main

import (
	"errors"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sweep"
)

// otherValue is a valid value of parameter s other than its default: the
// next choice of a text parameter (from core's own lists), the default
// plus one or halved, the other boolean, a two-item list.
func otherValue(t *testing.T, s core.ParamSpec) string {
	t.Helper()
	text := map[string]string{
		"compat": string(core.CompatReference), "method": string(core.MethodTotal), "profile": core.ProfileNames()[0],
		"warmup_mode": string(core.WarmupFixed), "warmup_driver": core.MetricKeys()[1],
		"trend_gate": string(core.TrendGates()[1]), "window_start": string(core.WindowStartMSER),
	}
	switch s.Kind {
	case core.KindText:
		v, ok := text[s.Name]
		if !ok {
			t.Fatalf("%s: a text parameter this test has no other value of", s.Name)
		}
		return v
	case core.KindInteger:
		n, err := strconv.Atoi(s.Default)
		if err != nil {
			t.Fatal(err)
		}
		return strconv.Itoa(n + 1)
	case core.KindNumber:
		x, err := strconv.ParseFloat(s.Default, 64)
		if err != nil {
			t.Fatal(err)
		}
		if x == 0 {
			return "1"
		}
		return strconv.FormatFloat(x/2, 'g', -1, 64)
	case core.KindBool:
		return strconv.FormatBool(s.Default != "true")
	case core.KindInts:
		return "3,5"
	case core.KindNumbers:
		return "0.02,0.04"
	}
	t.Fatalf("%s: kind %q", s.Name, s.Kind)
	return ""
}

// analyzeParamsErr is what analyze makes of args, or its error.
func analyzeParamsErr(args ...string) (core.Params, error) {
	var f analyzeFlags
	fs := pflag.NewFlagSet("analyze", pflag.ContinueOnError)
	f.register(fs)
	if _, err := parseFlags(fs, "analyze", args, io.Discard, io.Discard); err != nil {
		return core.Params{}, err
	}
	return f.params()
}

// TestAnalyzeSetEveryParameter: every parameter of the table
// (core.ParamSpecs) is settable by analyze --set, and analyze --set
// name=v gives the very parameters a sweep's --set name=v over the default
// preset gives (the same canonical text), with name holding v.
func TestAnalyzeSetEveryParameter(t *testing.T) {
	specs := core.ParamSpecs()
	if len(specs) != len(core.Names()) {
		t.Fatalf("%d specs for %d parameters", len(specs), len(core.Names()))
	}
	for _, s := range specs {
		v := otherValue(t, s)
		set := s.Name + "=" + v
		got := analyzeParamsOf(t, "--set", set)
		configs, _, err := sweep.Grid{}.NamedConfigs([]string{"default"}, []string{set})
		if err != nil || len(configs) != 1 {
			t.Fatalf("sweep --set %s: %d configs, %v", set, len(configs), err)
		}
		if g, w := string(got.Canonical()), string(configs[0].Canonical()); g != w {
			t.Errorf("--set %s: analyze and sweep differ:\nanalyze %s\nsweep   %s", set, g, w)
		}
		if g, _ := got.Get(s.Name); g != v || g == s.Default {
			t.Errorf("--set %s: %s is %q (default %q)", set, s.Name, g, s.Default)
		}
	}
}

// TestAnalyzeSetErrors: a bad value is a one-line usage error naming the
// parameter (and --set); a parameter given by its flag and by --set is
// refused; --trend-gate is parsed, not cast.
func TestAnalyzeSetErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--set", "alpha=abc"}, "alpha"},
		{[]string{"--set", "warmup_max_frac=2"}, "--set warmup_max_frac"},
		{[]string{"--set", "no_such=1"}, `unknown parameter "no_such"`},
		{[]string{"--set", "alpha"}, "want name=value"},
		{[]string{"--set", "alpha=0.01,0.05"}, "one value"},
		{[]string{"--warmup-band", "0.1", "--set", "warmup_band=0.2"}, "--warmup-band"},
		{[]string{"--trend-gate", "bogus"}, "--trend-gate"},
	} {
		_, err := analyzeParamsErr(c.args...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || !errors.As(err, &ue) {
			t.Errorf("analyze %q: err = %v; want a one-line usage error naming %q", c.args, err, c.want)
		}
	}
}

// TestHelpListsParameters: help analyze and help sweep list exactly the
// parameter table, in its order, each with its default.
func TestHelpListsParameters(t *testing.T) {
	entry := regexp.MustCompile(`(?m)^  ([a-z0-9_]+) \(([a-z ]+)\) default (\S+?)(?:, reference |; |\n)`)
	for _, cmd := range []string{"analyze", "sweep"} {
		page := helpPage(cmd, pflag.NewFlagSet(cmd, pflag.ContinueOnError))
		got := entry.FindAllStringSubmatch(page, -1)
		specs := core.ParamSpecs()
		if len(got) != len(specs) {
			t.Fatalf("help %s lists %d parameters; the table has %d", cmd, len(got), len(specs))
		}
		for i, s := range specs {
			def := s.Default
			if def == "" {
				def = `""`
			}
			if got[i][1] != s.Name || got[i][2] != s.Kind || got[i][3] != def {
				t.Errorf("help %s entry %d: %q; want %s (%s) default %s", cmd, i, got[i][0], s.Name, s.Kind, def)
			}
		}
	}
}

// TestParamTableEndToEnd walks the parameter table (core.ParamSpecs):
// each parameter is a rows column (sinks.RowsColumns) documented with the
// table's meaning, an entry of help analyze, and analyze RUN --set
// name=v (v another valid value, from the table's default) analyses the
// run with it: the run page's settings (its embedded record, read back
// with htmlpage.Record) show v for that parameter and the default's text
// for every other. A plain flag (--warmup-band) gives what --set gives.
func TestParamTableEndToEnd(t *testing.T) {
	cols := map[string]string{}
	for _, c := range sinks.RowsColumns() {
		cols[c.Name] = c.Doc
	}
	help := helpPage("analyze", pflag.NewFlagSet("analyze", pflag.ContinueOnError))
	dir := t.TempDir()
	settings := func(args ...string) map[string]string {
		t.Helper()
		page := filepath.Join(dir, "run.html")
		mustAnalyze(t, goodRun, append([]string{"--html", page}, args...)...)
		params, _ := recordField(recordField(pageRecord(t, page), "settings").(pyjson.Object), "params").(pyjson.Object)
		out := map[string]string{}
		for _, f := range params {
			out[f.Key], _ = f.Value.(string)
		}
		return out
	}
	defaults := settings()
	for _, s := range core.ParamSpecs() {
		if doc := cols[s.Name]; !strings.Contains(doc, s.Doc) {
			t.Errorf("%s: rows column documented %q; want the table's %q", s.Name, doc, s.Doc)
		}
		if !strings.Contains(help, "\n  "+s.Name+" ("+s.Kind+") default ") {
			t.Errorf("help analyze does not list %s (%s)", s.Name, s.Kind)
		}
		v := otherValue(t, s)
		got := settings("--set", s.Name+"="+v)
		for _, n := range core.Names() {
			want := defaults[n]
			if n == s.Name {
				want = v
			}
			if got[n] != want {
				t.Errorf("--set %s=%s: the page's settings show %s=%q; want %q", s.Name, v, n, got[n], want)
			}
		}
		if fl := plainFlag(s); fl != "" {
			if f := analyzeParamsOf(t, "--"+fl, v); string(f.Canonical()) != string(analyzeParamsOf(t, "--set", s.Name+"="+v).Canonical()) {
				t.Errorf("--%s %s and --set %s=%s differ", fl, v, s.Name, v)
			}
		}
	}
	if len(defaults) != len(core.Names()) {
		t.Errorf("the page's settings list %d parameters; the table has %d", len(defaults), len(core.Names()))
	}
}
