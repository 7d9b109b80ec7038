package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"go.yaml.in/yaml/v3"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// Issue 14: never print a number the run cannot support. Every named run
// (the shared parity runs, the shared accuracy runs when present, and
// generated runs for each case of the issue) is analysed with the
// defaults, and its JSON, text report and point.yaml block are checked
// against each other and against the rules a supported number obeys.

// honestyRun is one named run and what the test knows about it.
type honestyRun struct {
	name, dir string
}

// honestyRuns are the named runs: generated ones always, the shared ones
// when ../shared is present.
func honestyRuns(t *testing.T) []honestyRun {
	var runs []honestyRun
	for _, p := range []string{"clean_ramp", "failures_retries", "ramp_only", "offline_burst", "poisson_steady",
		"drift_up", "late_staircase", "truncated", "partial_dataset"} {
		runs = append(runs, honestyRun{"synth/" + p, synthRun(t, p, 3)})
	}
	ns, _ := nonStreamingRun(t, "clean_ramp")
	runs = append(runs, honestyRun{"synth/nonstreaming", ns})
	neg, _, _ := negativeLatencyRun(t)
	runs = append(runs, honestyRun{"synth/negative_latency", neg})
	late, _, _ := firstTokenAfterCompleteRun(t)
	runs = append(runs, honestyRun{"synth/first_token_after_complete", late})
	for _, set := range []string{"parity/runs", "accuracy/runs"} {
		root := filepath.Join(sharedtest.Locate(), filepath.FromSlash(set))
		if fi, err := os.Stat(root); sharedtest.Locate() == "" || err != nil || !fi.IsDir() {
			t.Logf("../shared/%s absent: generated runs only", set)
			continue
		}
		es, err := os.ReadDir(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.IsDir() {
				runs = append(runs, honestyRun{strings.SplitN(set, "/", 2)[0] + "/" + e.Name(), filepath.Join(root, e.Name())})
			}
		}
	}
	return runs
}

// negativeLatencyRun: every 20th sample's COMPLETE 1000 s before its ISSUED.
func negativeLatencyRun(t *testing.T) (string, int, int) {
	return brokenTiming(t, "clean_ramp", 20, "complete", func(issued, _, complete logLine) {
		complete.setTS(issued.ts() - 1000e9)
	})
}

// firstTokenAfterCompleteRun: every 20th sample's first token 1 s after
// its COMPLETE.
func firstTokenAfterCompleteRun(t *testing.T) (string, int, int) {
	return brokenTiming(t, "clean_ramp", 20, "first", func(_, first, complete logLine) {
		first.setTS(complete.ts() + 1e9)
	})
}

// analyzed is one analysis of a run: the report, stderr, the JSON and the
// point.yaml block.
type analyzed struct {
	text, stderr string
	json         map[string]any
	pointYAML    string
}

func analyzeDefaults(t *testing.T, dir string, extra ...string) analyzed {
	t.Helper()
	jsonPath := filepath.Join(t.TempDir(), "result.json")
	var a analyzed
	a.text, a.stderr = mustAnalyze(t, dir, append([]string{"--json", jsonPath}, extra...)...)
	a.json = jsonObject(t, jsonPath)
	a.pointYAML, _ = mustAnalyze(t, dir, "--point-yaml")
	return a
}

// get walks a JSON path ("a.b.c"); nil when absent or null.
func get(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}

func number(v any) (float64, bool) { f, ok := v.(float64); return f, ok }

// checkCI: a steady interval is null, or 0 ≤ lo ≤ value ≤ hi with a
// width below twice the value.
func checkCI(t *testing.T, what string, value, ci any) {
	t.Helper()
	if ci == nil {
		return
	}
	v, ok := number(value)
	b, _ := ci.([]any)
	if !ok || len(b) != 2 {
		t.Errorf("%s: interval %v around %v", what, ci, value)
		return
	}
	lo, _ := number(b[0])
	hi, _ := number(b[1])
	if !(0 <= lo && lo <= v && v <= hi && hi-lo < 2*v) {
		t.Errorf("%s: %v [%v, %v]: not 0 ≤ lo ≤ value ≤ hi with width < 2·value", what, v, lo, hi)
	}
}

// reportRow finds a row of the text report by its label and returns its
// fields after the label.
func reportRow(text, label string) []string {
	for _, l := range strings.Split(text, "\n") {
		if s, ok := strings.CutPrefix(strings.TrimSpace(l), label); ok && (s == "" || s[0] == ' ') {
			return strings.Fields(s)
		}
	}
	return nil
}

// fixed1 is the report's one-decimal rendering of a JSON number (n/a for null).
func fixed1(v any) string {
	if f, ok := number(v); ok {
		return fmt.Sprintf("%.1f", f)
	}
	return "n/a"
}

// checkThroughputText: the report's throughput rows print the JSON's
// numbers (value, interval, total) or n/a where the JSON has null.
func checkThroughputText(t *testing.T, a analyzed) {
	t.Helper()
	for _, c := range []struct{ label, key, total string }{
		{"system TPS", "system", "total.tps_system"}, {"per-user TPS", "per_user", "total.tps_per_user"},
	} {
		f := reportRow(a.text, c.label)
		if f == nil {
			t.Errorf("report has no %q row", c.label)
			continue
		}
		v := get(a.json, "throughput."+c.key+".value")
		if f[0] != fixed1(v) {
			t.Errorf("%s: report %q, JSON %v", c.label, f[0], v)
		}
		wantCI := "n/a"
		if ci, ok := get(a.json, "throughput."+c.key+".ci95").([]any); ok {
			wantCI = "[" + fixed1(ci[0]) + ", " + fixed1(ci[1]) + "]"
		}
		line := strings.Join(f, " ")
		if v != nil && !strings.Contains(line, wantCI) {
			t.Errorf("%s: report %q lacks the JSON interval %s", c.label, line, wantCI)
		}
		if tot := fixed1(get(a.json, c.total)); !strings.Contains(line, tot) {
			t.Errorf("%s: report %q lacks the JSON total %s", c.label, line, tot)
		}
		if r, _ := get(a.json, "throughput."+c.key+".reason").(string); r != "" && get(a.json, "throughput.basis") != nil &&
			!strings.Contains(strings.Join(strings.Fields(a.text), " "), r) {
			t.Errorf("%s: the report does not give the reason %q", c.label, r)
		}
	}
}

// checkLatencyText: the report's latency table prints the JSON's steady
// and total percentiles (ms, two decimals) or n/a where the JSON has
// none.
func checkLatencyText(t *testing.T, a analyzed) {
	t.Helper()
	lines := strings.Split(a.text, "\n")
	ms := func(v any) string {
		if f, ok := number(v); ok {
			return fmt.Sprintf("%.2f", f/1e6)
		}
		return "n/a"
	}
	for _, c := range []struct{ label, key string }{{"TTFT", "ttft_ns"}, {"TPOT", "tpot_ns"}, {"e2e", "latency_ns"}} {
		found := false
		for i, l := range lines {
			f := strings.Fields(l)
			if len(f) != 5 || f[0] != c.label || f[1] != "steady" || i+1 >= len(lines) {
				continue
			}
			found = true
			tot := strings.Fields(lines[i+1])
			for _, row := range []struct {
				block string
				got   []string
			}{{"steady", f[2:]}, {"total", tot[1:]}} {
				var want []string
				for _, p := range []string{"p50", "p90", "p99"} {
					want = append(want, ms(get(a.json, row.block+"."+c.key+"."+p)))
				}
				if strings.Join(row.got, " ") != strings.Join(want, " ") {
					t.Errorf("%s %s: report %v, JSON %v", c.label, row.block, row.got, want)
				}
			}
		}
		if !found {
			t.Errorf("report has no %s latency rows", c.label)
		}
	}
}

// TestHonestyOverNamedRuns is the table test: for every run, each
// steady interval is null or 0 ≤ lo ≤ value ≤ hi with width < 2·value;
// no steady system TPS above 3× the whole run's; one computation behind
// the JSON's three copies of the steady throughput, the report and the
// point.yaml block, which the submission checker's rules accept.
func TestHonestyOverNamedRuns(t *testing.T) {
	for _, hr := range honestyRuns(t) {
		t.Run(hr.name, func(t *testing.T) {
			a := analyzeDefaults(t, hr.dir)
			j := a.json
			checkCI(t, "steady_state.tps.system_ci", get(j, "steady_state.tps.system"), get(j, "steady_state.tps.system_ci"))
			checkCI(t, "steady_state.tps.per_user_ci", get(j, "steady_state.tps.per_user"), get(j, "steady_state.tps.per_user_ci"))
			checkCI(t, "throughput.system", get(j, "throughput.system.value"), get(j, "throughput.system.ci95"))
			checkCI(t, "throughput.per_user", get(j, "throughput.per_user.value"), get(j, "throughput.per_user.ci95"))
			sys, ok := number(get(j, "throughput.system.value"))
			if total, tok := number(get(j, "total.tps_system")); ok && tok && sys > 3*total {
				t.Errorf("steady system TPS %.1f > 3 × whole-run %.1f", sys, total)
			}
			// One computation: the reference-layout block, the steady
			// totals and the throughput key hold the same numbers.
			for _, k := range []string{"steady_state.tps.system", "steady.tps_system"} {
				if w := get(j, k); (w == nil) != !ok || ok && w.(float64) != sys {
					if get(j, "steady_state.tps") != nil || k == "steady.tps_system" && get(j, "steady") != nil {
						t.Errorf("%s = %v, throughput.system.value = %v", k, w, get(j, "throughput.system.value"))
					}
				}
			}
			if get(j, "status") == nil {
				t.Fatal("no status in the JSON")
			}
			if f := reportRow(a.text, "status"); len(f) == 0 || f[0] != get(j, "status") {
				t.Errorf("report status %v, JSON %v", f, get(j, "status"))
			}
			if f := reportRow(a.text, "verdict"); strings.Join(f, " ") != get(j, "verdict") {
				t.Errorf("report verdict %v, JSON %v", f, get(j, "verdict"))
			}
			if get(j, "mode.method") != "not_supported" {
				checkThroughputText(t, a)
				checkLatencyText(t, a)
			}
			if nf, _ := number(get(j, "failures.n_failed")); nf > 0 {
				want := fmt.Sprintf("%d of %d requests failed", int(nf), int(get(j, "failures.n_issued").(float64)))
				if !strings.Contains(a.text, want) {
					t.Errorf("report lacks %q", want)
				}
			} else if strings.Contains(a.text, "requests failed") {
				t.Error("report names failures the JSON does not count")
			}
			if kinds, _ := get(j, "timing.kinds").([]any); len(kinds) > 0 != strings.Contains(a.stderr, "impossible timing") {
				t.Errorf("timing kinds %v, stderr %q", kinds, a.stderr)
			}
			facts := blockFacts(t, hr.dir, j)
			if errs := checkSteadyStateBlock(a.pointYAML, facts); len(errs) > 0 {
				t.Errorf("point.yaml block rejected:\n%s\n%s", strings.Join(errs, "\n"), a.pointYAML)
			}
			var y struct {
				SteadyState map[string]any `yaml:"steady_state"`
			}
			if err := yaml.Unmarshal([]byte(a.pointYAML), &y); err != nil || y.SteadyState["status"] != get(j, "submission.status") ||
				y.SteadyState["verdict"] != get(j, "submission.verdict") {
				t.Errorf("point.yaml %v differs from the JSON submission %v (%v)", y.SteadyState, get(j, "submission"), err)
			}
		})
	}
}

// blockFacts are the run facts the checker reads beside the block: full
// super-passes and concurrency (config.yaml).
func blockFacts(t *testing.T, dir string, j map[string]any) runFacts {
	t.Helper()
	run, err := columnar.ResolveRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := number(get(j, "total.n_samples"))
	S, ok := number(get(j, "superpass_size"))
	if !ok { // the agentic NATL dict: super-passes of the dataset size
		S = float64(run.Info.DatasetSize)
	}
	f := runFacts{concurrency: run.Info.Concurrency}
	if S > 0 {
		f.nFull = int(n) / int(S)
	}
	return f
}

// runFacts are what the checker knows about a point besides its block.
type runFacts struct{ nFull, concurrency int }

// checkSteadyStateBlock encodes the MLCommons submission checker's rules
// for the steady_state block (issue 10: steady-state-valid,
// steady-state-consistency, steady-state-basis, point-duration) and
// returns every violation:
//
//   - status ∈ {windowable, insufficient_duration, insufficient_passes,
//     partial_dataset}; verdict ∈ {STEADY STATE, drifting_up,
//     drifting_down, anomaly, not found}; window and state mappings, never
//     null; no NaN/Inf; integers as integers.
//   - window is {} or exactly super_pass_start ≤ super_pass_end (0-based,
//     end inclusive), super_pass_size > 0, n_samples ≥ 0, duration_s ≥ 0;
//     state is {} or exactly tpot_p50, tpot_p90 with Plateau / Drifting Up
//     / Drifting Down, and present whenever the window is.
//   - windowable: ≥ 4 super-passes, all Plateau, duration ≥ the region
//     minimum (600 s; 1200 s above concurrency 32); insufficient_duration:
//     ≥ 4, all Plateau, shorter; insufficient_passes: 1–3 super-passes, or
//     no window with ≥ 1 full super-pass in the run; partial_dataset: less
//     than one full super-pass.
//   - STEADY STATE only windowable with all Plateau and no anomaly;
//     drifting_up (down) has a Drifting Up (Down) state; a drifting state
//     has a drifting or anomaly verdict; anomaly ⇔ an anomaly mapping with
//     an integer change point, a finite delta_pct and [start, end] plateaus.
func checkSteadyStateBlock(text string, facts runFacts) []string {
	var errs []string
	bad := func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }
	var doc struct {
		SteadyState map[string]any `yaml:"steady_state"`
	}
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil || doc.SteadyState == nil {
		return []string{fmt.Sprintf("not a steady_state mapping: %v", err)}
	}
	b := doc.SteadyState
	status, _ := b["status"].(string)
	verdict, _ := b["verdict"].(string)
	switch status {
	case "windowable", "insufficient_duration", "insufficient_passes", "partial_dataset":
	default:
		bad("status %q not allowed", b["status"])
	}
	switch verdict {
	case "STEADY STATE", "drifting_up", "drifting_down", "anomaly", "not found":
	default:
		bad("verdict %q not allowed", b["verdict"])
	}
	window, wok := b["window"].(map[string]any)
	state, sok := b["state"].(map[string]any)
	if !wok || !sok {
		bad("window and state must be mappings (got %T, %T)", b["window"], b["state"])
		return errs
	}
	n := 0
	if len(window) > 0 {
		keys := []string{"super_pass_start", "super_pass_end", "super_pass_size", "n_samples"}
		ints := map[string]int{}
		for _, k := range keys {
			v, ok := window[k].(int)
			if !ok {
				bad("window.%s = %v is not an integer", k, window[k])
			}
			ints[k] = v
		}
		d, ok := window["duration_s"].(float64)
		if di, isInt := window["duration_s"].(int); isInt {
			d, ok = float64(di), true
		}
		if !ok || math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
			bad("window.duration_s = %v", window["duration_s"])
		}
		if len(window) != 5 {
			bad("window keys %v", window)
		}
		if ints["super_pass_start"] < 0 || ints["super_pass_end"] < ints["super_pass_start"] || ints["super_pass_size"] <= 0 ||
			ints["n_samples"] < 0 {
			bad("window %v", window)
		}
		n = ints["super_pass_end"] - ints["super_pass_start"] + 1
		min := 600.0
		if facts.concurrency > 32 {
			min = 1200
		}
		if len(state) == 0 {
			bad("a window without its state")
		}
		plateau := state["tpot_p50"] == "Plateau" && state["tpot_p90"] == "Plateau"
		switch status {
		case "windowable":
			if n < 4 || !plateau || d < min {
				bad("windowable needs ≥ 4 super-passes, all Plateau, ≥ %.0f s: %d, %v, %v s", min, n, state, d)
			}
		case "insufficient_duration":
			if n < 4 || !plateau || d >= min {
				bad("insufficient_duration needs ≥ 4 super-passes, all Plateau, < %.0f s: %d, %v, %v s", min, n, state, d)
			}
		case "insufficient_passes":
			if n < 1 || n > 3 {
				bad("insufficient_passes with a window of %d super-passes (the rule says 1–3)", n)
			}
		}
	} else if status == "windowable" || status == "insufficient_duration" {
		bad("%s without a window", status)
	} else if status == "insufficient_passes" && facts.nFull < 1 {
		bad("insufficient_passes without a window needs ≥ 1 full super-pass (run has %d)", facts.nFull)
	}
	if status == "partial_dataset" && facts.nFull >= 1 {
		bad("partial_dataset for a run with %d full super-passes", facts.nFull)
	}
	if len(state) > 0 {
		if len(state) != 2 {
			bad("state keys %v", state)
		}
		for _, k := range []string{"tpot_p50", "tpot_p90"} {
			switch state[k] {
			case "Plateau", "Drifting Up", "Drifting Down":
			default:
				bad("state.%s = %v", k, state[k])
			}
		}
	}
	has := func(s string) bool { return state["tpot_p50"] == s || state["tpot_p90"] == s }
	an, hasAnomaly := b["anomaly"].(map[string]any)
	switch verdict {
	case "STEADY STATE":
		if status != "windowable" || has("Drifting Up") || has("Drifting Down") || hasAnomaly {
			bad("STEADY STATE with status %s, state %v, anomaly %v", status, state, hasAnomaly)
		}
	case "drifting_up":
		if !has("Drifting Up") {
			bad("drifting_up without a Drifting Up state: %v", state)
		}
	case "drifting_down":
		if !has("Drifting Down") {
			bad("drifting_down without a Drifting Down state: %v", state)
		}
	}
	if (has("Drifting Up") || has("Drifting Down")) && verdict != "drifting_up" && verdict != "drifting_down" && verdict != "anomaly" {
		bad("drifting state %v with verdict %s", state, verdict)
	}
	if hasAnomaly != (verdict == "anomaly") {
		bad("anomaly mapping %v with verdict %s", hasAnomaly, verdict)
	}
	if hasAnomaly {
		if _, ok := an["change_point_super_pass"].(int); !ok {
			bad("anomaly.change_point_super_pass = %v", an["change_point_super_pass"])
		}
		if d, ok := an["delta_pct"].(float64); !ok || math.IsNaN(d) || math.IsInf(d, 0) {
			if _, isInt := an["delta_pct"].(int); !isInt {
				bad("anomaly.delta_pct = %v", an["delta_pct"])
			}
		}
		pls, _ := an["plateaus"].([]any)
		for _, p := range pls {
			pair, _ := p.([]any)
			if len(pair) != 2 {
				bad("anomaly plateau %v", p)
				continue
			}
			s, ok1 := pair[0].(int)
			e, ok2 := pair[1].(int)
			if !ok1 || !ok2 || s > e {
				bad("anomaly plateau %v", p)
			}
		}
	}
	return errs
}

// The validator rejects what the checker rejects: each rule on a block
// that breaks it.
func TestCheckSteadyStateBlockRules(t *testing.T) {
	win := func(start, end int, d string) string {
		return fmt.Sprintf("  window:\n    super_pass_start: %d\n    super_pass_end: %d\n    super_pass_size: 100\n"+
			"    n_samples: 400\n    duration_s: %s\n", start, end, d)
	}
	state := func(s string) string { return "  state:\n    tpot_p50: " + s + "\n    tpot_p90: " + s + "\n" }
	facts := runFacts{nFull: 10, concurrency: 8}
	for _, c := range []struct {
		name, block string
		ok          bool
	}{
		{"windowable", "steady_state:\n  status: windowable\n  verdict: STEADY STATE\n" + win(1, 6, "720.5") + state("Plateau"), true},
		{"windowable too short", "steady_state:\n  status: windowable\n  verdict: STEADY STATE\n" + win(1, 6, "500.0") + state("Plateau"), false},
		{"insufficient_duration", "steady_state:\n  status: insufficient_duration\n  verdict: not found\n" + win(1, 6, "500.0") + state("Plateau"), true},
		{"3-sp window", "steady_state:\n  status: insufficient_passes\n  verdict: not found\n" + win(1, 3, "300.0") + state("Plateau"), true},
		{"drifting 6-sp window as insufficient_passes", "steady_state:\n  status: insufficient_passes\n  verdict: drifting_up\n" +
			win(1, 6, "720.0") + state("Drifting Up"), false},
		{"drifting, no window", "steady_state:\n  status: insufficient_passes\n  verdict: drifting_up\n  window: {}\n" + state("Drifting Up"), true},
		{"drifting verdict without drifting state", "steady_state:\n  status: insufficient_passes\n  verdict: drifting_down\n  window: {}\n  state: {}\n", false},
		{"null window", "steady_state:\n  status: insufficient_passes\n  verdict: not found\n  window: null\n  state: {}\n", false},
		{"unknown status", "steady_state:\n  status: drifting\n  verdict: not found\n  window: {}\n  state: {}\n", false},
		{"anomaly without mapping", "steady_state:\n  status: windowable\n  verdict: anomaly\n" + win(1, 6, "720.0") + state("Plateau"), false},
		{"anomaly", "steady_state:\n  status: windowable\n  verdict: anomaly\n" + win(1, 6, "720.0") + state("Plateau") +
			"  anomaly:\n    change_point_super_pass: 7\n    delta_pct: 21.5\n    plateaus:\n      - [1, 6]\n      - [7, 9]\n", true},
		{"nan duration", "steady_state:\n  status: insufficient_passes\n  verdict: not found\n" + win(1, 2, ".nan") + state("Plateau"), false},
		{"float index", "steady_state:\n  status: insufficient_passes\n  verdict: not found\n" +
			strings.Replace(win(1, 2, "10.0"), "start: 1", "start: 1.0", 1) + state("Plateau"), false},
	} {
		errs := checkSteadyStateBlock(c.block, facts)
		if (len(errs) == 0) != c.ok {
			t.Errorf("%s: errors %v, want accepted %v", c.name, errs, c.ok)
		}
	}
	if errs := checkSteadyStateBlock("steady_state:\n  status: partial_dataset\n  verdict: not found\n  window: {}\n  state: {}\n",
		runFacts{nFull: 3}); len(errs) == 0 {
		t.Error("partial_dataset accepted for a run with 3 full super-passes")
	}
}

// conc_failures: 84 of 2,600 requests failed, 41 HTTP 503s before any
// chunk and 43 mid-stream ClientPayloadErrors after a first chunk (the
// run's truth.json counts and its error events' texts). The JSON, the
// report and the sweep rows say so.
func TestHonestyConcFailures(t *testing.T) {
	dir := filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs", "conc_failures")
	a := analyzeDefaults(t, dir)
	j := a.json
	if get(j, "failures.n_failed") != 84.0 || get(j, "failures.by_kind.http") != 41.0 ||
		get(j, "failures.by_kind.midstream") != 43.0 || get(j, "failures.by_kind.error") != 0.0 ||
		get(j, "failures.n_issued") != 2600.0 {
		t.Errorf("failures %v", get(j, "failures"))
	}
	if f, _ := number(get(j, "total.completed_frac")); math.Abs(f-2516.0/2600) > 1e-12 {
		t.Errorf("completed_frac %v, want 2516/2600", f)
	}
	want := "84 of 2600 requests failed (3.2%): 41 http, 43 midstream"
	if !strings.Contains(a.text, want) || !strings.Contains(a.text, "more than 1% failed") {
		t.Errorf("report lacks %q and the warning:\n%s", want, a.text)
	}
	// The same counts read independently from the raw log, and the
	// window's own: the failed samples among the window's super-passes
	// (issue order, super_pass_size each).
	raw := rawFailures(t, filepath.Join(dir, "events.jsonl"))
	if raw.failed != 84 || raw.http != 41 || raw.midstream != 43 || raw.issued != 2600 {
		t.Errorf("raw log: %+v", raw)
	}
	lo, _ := number(get(j, "submission.window.super_pass_start"))
	hi, _ := number(get(j, "submission.window.super_pass_end"))
	S, _ := number(get(j, "submission.window.super_pass_size"))
	inWin := 0
	for _, pos := range raw.failedAt {
		if pos >= int(lo*S) && pos < int((hi+1)*S) {
			inWin++
		}
	}
	if get(j, "failures.window.n_failed") != float64(inWin) || get(j, "failures.window.n_issued") != (hi-lo+1)*S ||
		inWin == 0 {
		t.Errorf("window failures %v; raw log %d of %v in super-passes %v..%v", get(j, "failures.window"), inWin, (hi-lo+1)*S, lo, hi)
	}
	if w := fmt.Sprintf("window %d of %d", inWin, int((hi-lo+1)*S)); !strings.Contains(a.text, w) {
		t.Errorf("report lacks %q", w)
	}
	rows := sweepRowsOf(t, dir)
	if len(rows) != 1 || rows[0]["n_failed"] != int64(84) || math.Abs(rows[0]["failed_frac"].(float64)-84.0/2600) > 1e-15 ||
		rows[0]["steady_tps_system"] != get(j, "throughput.system.value") {
		t.Errorf("rows %v; JSON throughput %v", rows, get(j, "throughput.system.value"))
	}
}

// rawCounts are a log's failures counted from its lines alone: a sample
// with an error.generic event failed, over HTTP when the error's message
// names an HTTP status, mid-stream when it had a recv_first; failedAt are
// the failed samples' positions in issue order.
type rawCounts struct {
	issued, failed, http, midstream int
	failedAt                        []int
}

func rawFailures(t *testing.T, path string) rawCounts {
	t.Helper()
	type sample struct {
		issued       int64
		first, error bool
		http         bool
	}
	samples := map[string]*sample{}
	var order []string
	for _, l := range decodeLog(t, path) {
		u := l.uuid()
		switch l.kind() {
		case "sample.issued":
			samples[u] = &sample{issued: l.ts()}
			order = append(order, u)
		case "sample.recv_first":
			if s := samples[u]; s != nil {
				s.first = true
			}
		case "error.generic":
			if s := samples[u]; s != nil {
				s.error = true
				d, _ := l["data"].([]any)
				msg, _ := d[len(d)-1].(string)
				s.http = strings.HasPrefix(msg, "HTTP ")
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return samples[order[a]].issued < samples[order[b]].issued })
	c := rawCounts{issued: len(order)}
	for pos, u := range order {
		s := samples[u]
		if !s.error {
			continue
		}
		c.failed++
		c.failedAt = append(c.failedAt, pos)
		switch {
		case s.http:
			c.http++
		case s.first:
			c.midstream++
		}
	}
	return c
}

// sweepRowsOf sweeps the one run at dir with the default preset and
// returns its rows as column → value (int64, float64, string, bool; nil
// for null).
func sweepRowsOf(t *testing.T, dir string) []map[string]any {
	t.Helper()
	arch := t.TempDir()
	if err := os.Symlink(dir, filepath.Join(arch, filepath.Base(dir))); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	// The archive is a link to dir, outside it: --follow-links.
	mustRun(t, "sweep", arch, "-o", out, "--tokenizer", "words", "--no-cache", "--follow-links")
	return tableRowsOf(t, filepath.Join(out, "rows"))
}

// tableRowsOf reads every row of the part files of a table directory
// (OUT/rows, OUT/series) as column → value (int64, float64, string, bool;
// nil for null).
func tableRowsOf(t *testing.T, dir string) []map[string]any {
	t.Helper()
	files, err := sinks.PartFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	sinkstest.EachRecord(t, files, memory.DefaultAllocator, func(_ string, rec arrow.RecordBatch) {
		for i := range int(rec.NumRows()) {
			row := map[string]any{}
			for c, field := range rec.Schema().Fields() {
				col := rec.Column(c)
				if col.IsNull(i) {
					row[field.Name] = nil
					continue
				}
				switch a := col.(type) {
				case *array.Int64:
					row[field.Name] = a.Value(i)
				case *array.Float64:
					row[field.Name] = a.Value(i)
				case *array.String:
					row[field.Name] = a.Value(i)
				case *array.Boolean:
					row[field.Name] = a.Value(i)
				}
			}
			rows = append(rows, row)
		}
	})
	return rows
}

// A burst window (parity conc_ramp_only: 448 samples issued in 0.0 s)
// reports no throughput and no gap, with the reason, instead of the
// 4,228,040 tok/s beside a whole-run 5,251.5.
func TestHonestyBurstWindow(t *testing.T) {
	a := analyzeDefaults(t, filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs", "conc_ramp_only"))
	j := a.json
	for _, k := range []string{"throughput.system.value", "throughput.per_user.value", "steady_state.tps.system",
		"steady.tps_system", "gap.tps_uplift_pct", "gap.ttft_p99_change_pct"} {
		if v := get(j, k); v != nil {
			t.Errorf("%s = %v, want null", k, v)
		}
	}
	if r, _ := get(j, "throughput.system.reason").(string); !strings.Contains(r, "issue burst") {
		t.Errorf("reason %q", r)
	}
	if f := reportRow(a.text, "system TPS"); len(f) == 0 || f[0] != "n/a" || !strings.Contains(a.text, "TPS n/a: issue burst") ||
		!strings.Contains(a.text, "gap      n/a") {
		t.Errorf("report:\n%s", a.text)
	}
}

// Offline runs report the token-rate plateau's throughput everywhere
// (parity offline_burst: the text said 5,365 and the JSON 2,617,694) when
// the plateau is certified (--no-min-duration: its 23 s plateau is under
// the 600 s floor), and no steady number at all when it is not — one
// reason, the result's, in JSON and text (issue 28: the text printed a
// steady system TPS with an interval beside "verdict not found").
func TestHonestyOfflineOneNumber(t *testing.T) {
	dir := filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs", "offline_burst")
	a := analyzeDefaults(t, dir, "--no-min-duration")
	j := a.json
	v := get(j, "offline.tps_system")
	for _, k := range []string{"throughput.system.value", "steady_state.tps.system", "steady.tps_system"} {
		if get(j, k) != v || v == nil {
			t.Errorf("%s = %v, offline plateau %v", k, get(j, k), v)
		}
	}
	if get(j, "throughput.basis") != "token_rate_plateau" || get(j, "steady_state.window") != nil {
		t.Errorf("basis %v, issue-time window %v", get(j, "throughput.basis"), get(j, "steady_state.window"))
	}
	if f := reportRow(a.text, "system TPS"); len(f) == 0 || f[0] != fixed1(v) {
		t.Errorf("report system TPS %v, plateau %v", f, v)
	}
	if get(j, "steady_state.found") != true || get(j, "certification.metrics.tps_system.state") != "certified" {
		t.Errorf("certified plateau: found %v, system TPS %v", get(j, "steady_state.found"),
			get(j, "certification.metrics.tps_system.state"))
	}

	g := analyzeDefaults(t, dir)
	j = g.json
	reason, _ := get(j, "reason").(string)
	if get(j, "status") != "insufficient_duration" || get(j, "verdict") != "not found" || get(j, "steady_state.found") != false ||
		!strings.Contains(reason, "token-rate plateau") {
		t.Fatalf("gated: status %v, verdict %v, found %v, reason %q", get(j, "status"), get(j, "verdict"),
			get(j, "steady_state.found"), reason)
	}
	for _, k := range []string{"throughput.system.value", "throughput.per_user.value", "steady", "steady_state.tps.system"} {
		if get(j, k) != nil {
			t.Errorf("gated: %s = %v, want null", k, get(j, k))
		}
	}
	if get(j, "throughput.system.reason") != reason || get(j, "throughput.per_user.reason") != reason {
		t.Errorf("gated: reasons %v / %v, want the result's %q", get(j, "throughput.system.reason"),
			get(j, "throughput.per_user.reason"), reason)
	}
	if f := reportRow(g.text, "system TPS"); len(f) == 0 || f[0] != "n/a" || !strings.Contains(g.text, "TPS n/a: "+reason) {
		t.Errorf("gated report:\n%s", g.text)
	}
}

// A non-streaming run (no recv_first, whole outputs as strings): status
// non_streaming with the reason; the e2e latency, the request rate, the
// output tokens (every word of the outputs) and the whole run's system
// TPS are printed, TTFT, TPOT and every steady number are not.
func TestHonestyNonStreaming(t *testing.T) {
	dir, words := nonStreamingRun(t, "clean_ramp")
	a := analyzeDefaults(t, dir)
	j := a.json
	if get(j, "status") != "non_streaming" || get(j, "mode.method") != "whole_run" ||
		!strings.Contains(get(j, "reason").(string), "steadiness cannot be assessed") {
		t.Fatalf("status %v method %v reason %v", get(j, "status"), get(j, "mode.method"), get(j, "reason"))
	}
	if get(j, "total.out_tokens") != float64(words) {
		t.Errorf("out_tokens %v, the outputs hold %d words", get(j, "total.out_tokens"), words)
	}
	for _, k := range []string{"total.latency_ns.p50", "total.latency_ns.p99", "total.requests_per_s", "total.tps_system"} {
		if v, ok := number(get(j, k)); !ok || !(v > 0) {
			t.Errorf("%s = %v, want a number", k, get(j, k))
		}
	}
	for _, k := range []string{"total.ttft_ns.p50", "total.tpot_ns.p50", "steady", "steady_state.tps", "throughput.system.value"} {
		if v := get(j, k); v != nil {
			t.Errorf("%s = %v, want null", k, v)
		}
	}
	if w := "warning: " + filepath.Join(dir, "events.jsonl") + ": non_streaming: " + get(j, "reason").(string); strings.Count(a.stderr, "warning:") != 1 ||
		!strings.Contains(a.stderr, w) {
		t.Errorf("stderr %q, want once %q", a.stderr, w)
	}
	if !strings.Contains(a.text, "status   non_streaming") || !strings.Contains(a.text, "requests: ") {
		t.Errorf("report:\n%s", a.text)
	}
	ttft := reportRow(a.text, "TTFT")
	e2e := reportRow(a.text, "e2e")
	if strings.Join(ttft, " ") != "steady n/a n/a n/a" || len(e2e) != 4 || e2e[1] != "n/a" {
		t.Errorf("TTFT row %v, e2e steady row %v", ttft, e2e)
	}
	totalE2E := ""
	for _, l := range strings.Split(a.text, "\n") {
		if f := strings.Fields(l); len(f) == 4 && f[0] == "total" && strings.Contains(a.text, l) {
			totalE2E = l // the last total row is e2e's
		}
	}
	if p50, _ := number(get(j, "total.latency_ns.p50")); !strings.Contains(totalE2E, fmt.Sprintf("%.2f", p50/1e6)) {
		t.Errorf("e2e total row %q lacks p50 %.2f ms", totalE2E, p50/1e6)
	}
	if f := reportRow(a.text, "system TPS"); len(f) < 2 || f[0] != "n/a" || !strings.Contains(strings.Join(f, " "),
		fixed1(get(j, "total.tps_system"))) {
		t.Errorf("system TPS row %v", f)
	}
	png := filepath.Join(t.TempDir(), "plot.png")
	if _, stderr, err := tryRun("analyze", dir, "--tokenizer", "words", "--no-cache", "--plot", png); err != nil {
		t.Errorf("--plot: %v\n%s", err, stderr)
	}
}

// Impossible timing on 5 % of the samples (a COMPLETE 1000 s before its
// ISSUED; a first token 1 s after its COMPLETE): one warning with the
// count and the first line, status invalid_timing, the samples excluded
// (no negative latency or TPOT is printed), nothing certified.
func TestHonestyImpossibleTiming(t *testing.T) {
	for _, c := range []struct {
		name, kind string
		make       func(*testing.T) (string, int, int)
	}{
		{"negative latency", "negative latency", negativeLatencyRun},
		{"first token after complete", "first token after complete", firstTokenAfterCompleteRun},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, n, line := c.make(t)
			a := analyzeDefaults(t, dir)
			warn := fmt.Sprintf("impossible timing: %d %s (first at line %d); %d sample(s) excluded", n, c.kind, line, n)
			if strings.Count(a.stderr, "impossible timing") != 1 || !strings.Contains(a.stderr, warn) {
				t.Errorf("stderr %q, want once %q", a.stderr, warn)
			}
			j := a.json
			if get(j, "status") != "invalid_timing" || get(j, "verdict") != "not found" || get(j, "timing.trusted") != false ||
				get(j, "timing.n_excluded") != float64(n) || get(j, "submission.window") == nil ||
				len(get(j, "submission.window").(map[string]any)) != 0 {
				t.Errorf("status %v verdict %v timing %v submission %v", get(j, "status"), get(j, "verdict"), get(j, "timing"),
					get(j, "submission"))
			}
			if !strings.Contains(a.text, "status   invalid_timing") || !strings.Contains(strings.Join(strings.Fields(a.text), " "), warn) {
				t.Errorf("report lacks the status or the warning:\n%s", a.text)
			}
			neg := regexp.MustCompile(`(TTFT|TPOT|e2e|steady|total)\s+.*\s-\d`)
			for _, l := range strings.Split(a.text, "\n") {
				if neg.MatchString(l) && !strings.Contains(l, "%") {
					t.Errorf("a negative latency is printed: %q", l)
				}
			}
			for _, k := range []string{"total.latency_ns.p50", "total.tpot_ns.p50", "steady.tpot_ns.p50", "total.ttft_ns.p50"} {
				if v, ok := number(get(j, k)); ok && v <= 0 {
					t.Errorf("%s = %v", k, v)
				}
			}
		})
	}
}

// Formats that record token counts report throughput on the recorded
// whole-output counts, not on "tokens after the first" (issue 18): the
// GuideLLM run's 30 requests of 1,024 output tokens each (its README
// facts) are 30,720 tokens over its 928 s; AIPerf's 89 successful records
// sum to the output_sequence_length the raw file records, and its 11
// cancellations are failures of kind cancelled.
func TestHonestyRecordedTokens(t *testing.T) {
	real := realDataDir(t)
	g := analyzeDefaults(t, filepath.Join(real, "guidellm-gptoss20b-sync30", "openai_gpt-oss-20b_tp4_quant-none_benchmarks.json"))
	d, _ := number(get(g.json, "total.duration_s"))
	if get(g.json, "total.out_tokens") != 30720.0 || math.Abs(get(g.json, "total.tps_system").(float64)-30720/d) > 1e-9 {
		t.Errorf("guidellm: %v tokens, %v tok/s over %v s", get(g.json, "total.out_tokens"), get(g.json, "total.tps_system"), d)
	}
	path := filepath.Join(real, "aiperf-gptoss20b-burst100", "profile_export.jsonl")
	var want float64
	eachJSONLine(t, path, func(rec struct {
		Error   any `json:"error"`
		Metrics struct {
			OSL struct {
				Value float64 `json:"value"`
			} `json:"output_sequence_length"`
		} `json:"metrics"`
	}) {
		if rec.Error == nil {
			want += rec.Metrics.OSL.Value
		}
	})
	a := analyzeDefaults(t, path)
	if get(a.json, "total.out_tokens") != want || get(a.json, "failures.by_kind.cancelled") != 11.0 ||
		get(a.json, "total.n_completed") != 89.0 {
		t.Errorf("aiperf: %v tokens (raw file %v), failures %v, %v completed", get(a.json, "total.out_tokens"), want,
			get(a.json, "failures"), get(a.json, "total.n_completed"))
	}
}

// A vLLM result without start_times cannot be windowed (issue 18): status
// no_timeline with the reader's reason, latency percentiles only — no
// duration, no rate, no throughput.
func TestHonestyNoTimeline(t *testing.T) {
	src := filepath.Join("..", "..", "columnar", "testdata", "vllm_result",
		"openai-infqps-concurrency2-Llama-3.1-8B-Instruct-20260102-030405.json")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// The file is Python's JSON (request_rate is Infinity): cut the key
	// out of the text.
	out := regexp.MustCompile(`"start_times":\s*\[[^\]]*\],?\s*`).ReplaceAll(data, nil)
	if len(out) == len(data) {
		t.Fatal("no start_times in the fixture")
	}
	path := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	a := analyzeDefaults(t, path)
	j := a.json
	if get(j, "status") != "no_timeline" || !strings.Contains(get(j, "reason").(string), "start_times") ||
		get(j, "mode.method") != "whole_run" {
		t.Errorf("status %v reason %v", get(j, "status"), get(j, "reason"))
	}
	for _, k := range []string{"total.duration_s", "total.tps_system", "total.requests_per_s", "throughput.system.value"} {
		if v := get(j, k); v != nil {
			t.Errorf("%s = %v, want null", k, v)
		}
	}
	// What the file itself records: the successful requests (empty
	// error) with their TTFTs, latencies and output lengths; percentiles
	// are the detector's lower ones (detector spec §5.4).
	var raw struct {
		TTFTs     []float64 `json:"ttfts"`
		Latencies []float64 `json:"latencies"`
		OutLens   []float64 `json:"output_lens"`
		Errors    []string  `json:"errors"`
	}
	if err := json.Unmarshal(regexp.MustCompile(`\bInfinity\b`).ReplaceAll(out, []byte("null")), &raw); err != nil {
		t.Fatal(err)
	}
	var ttft, lat []float64
	var tokens float64
	failed := 0
	for i, e := range raw.Errors {
		if e != "" {
			failed++
			continue
		}
		ttft, lat = append(ttft, raw.TTFTs[i]*1e9), append(lat, raw.Latencies[i]*1e9)
		tokens += raw.OutLens[i]
	}
	sort.Float64s(ttft)
	sort.Float64s(lat)
	lower := func(s []float64, p float64) float64 { return s[int(p*float64(len(s)-1))] }
	if len(ttft) == 0 || get(j, "total.ttft_ns.p50") != lower(ttft, 0.5) || get(j, "total.ttft_ns.p90") != lower(ttft, 0.9) ||
		get(j, "total.latency_ns.p50") != lower(lat, 0.5) || get(j, "total.out_tokens") != tokens ||
		get(j, "failures.n_failed") != float64(failed) || get(j, "total.n_completed") != float64(len(ttft)) {
		t.Errorf("total %v, failures %v; the file: TTFT %v, latency %v, %v tokens, %d failed", get(j, "total"),
			get(j, "failures"), ttft, lat, tokens, failed)
	}
	if w := "warning: " + path + ": no_timeline: " + get(j, "reason").(string); !strings.Contains(a.stderr, w) {
		t.Errorf("stderr %q lacks %q", a.stderr, w)
	}
	if !strings.Contains(a.text, "status   no_timeline") || !strings.Contains(a.text, fmt.Sprintf("%.2f", lower(ttft, 0.5)/1e6)) {
		t.Errorf("report:\n%s", a.text)
	}
	rows := sweepRowsOf(t, filepath.Dir(path))
	if len(rows) != 1 || rows[0]["status"] != "no_timeline" || rows[0]["steady_tps_system"] != nil ||
		rows[0]["total_tps_system"] != nil || rows[0]["n_failed"] != int64(failed) {
		t.Errorf("rows %v", rows)
	}
}

// conc_dup_malformed plants 3 samples whose recv_first is later than their
// COMPLETE and 2 whose COMPLETE with a null timestamp comes before their
// real one (truth.json: description, null_ts_complete_uuids). Both are
// counted per kind, the raw log read independently here, and warned once;
// at 0.25 % of the run they are excluded without decertifying it.
func TestHonestyDupMalformedTiming(t *testing.T) {
	dir := filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs", "conc_dup_malformed")
	data, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	first, done := map[string]int64{}, map[string]int64{}
	nullComplete := map[string]bool{}
	firstLate := map[string]int{} // uuid → line of its first recv_first
	for i, l := range strings.Split(string(data), "\n") {
		var e struct {
			Kind string `json:"event_type"`
			UUID string `json:"sample_uuid"`
			TS   *int64 `json:"timestamp_ns"`
		}
		if json.Unmarshal([]byte(l), &e) != nil || e.UUID == "" {
			continue
		}
		switch {
		case e.Kind == "sample.recv_first" && e.TS != nil:
			if _, ok := first[e.UUID]; !ok {
				first[e.UUID], firstLate[e.UUID] = *e.TS, i+1
			}
		case e.Kind == "sample.complete" && e.TS == nil:
			nullComplete[e.UUID] = true
		case e.Kind == "sample.complete":
			done[e.UUID] = *e.TS
		}
	}
	late, lateLine := 0, 0
	for u, f := range first {
		if c, ok := done[u]; ok && f > c {
			late++
			if lateLine == 0 || firstLate[u] < lateLine {
				lateLine = firstLate[u]
			}
		}
	}
	var truth struct {
		Notes struct {
			NullComplete []string `json:"null_ts_complete_uuids"`
		} `json:"file_notes"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil || json.Unmarshal(raw, &truth) != nil {
		t.Fatalf("truth.json: %v", err)
	}
	if late != 3 || len(truth.Notes.NullComplete) != len(nullComplete) {
		t.Fatalf("raw log: %d late first tokens, %d null COMPLETEs (truth %v)", late, len(nullComplete), truth.Notes.NullComplete)
	}
	a := analyzeDefaults(t, dir)
	kinds := map[string][2]float64{}
	list, _ := get(a.json, "timing.kinds").([]any)
	for _, k := range list {
		m := k.(map[string]any)
		kinds[m["kind"].(string)] = [2]float64{m["count"].(float64), m["first_line"].(float64)}
	}
	n := late + len(nullComplete)
	if kinds["first_token_after_complete"] != [2]float64{float64(late), float64(lateLine)} ||
		kinds["duplicate_event"][0] != float64(len(nullComplete)) || len(kinds) != 2 ||
		get(a.json, "timing.n_excluded") != float64(n) || get(a.json, "timing.trusted") != true {
		t.Errorf("timing %v; raw log %d late (first at line %d), %d double COMPLETEs", get(a.json, "timing"), late, lateLine,
			len(nullComplete))
	}
	warn := fmt.Sprintf("impossible timing: %d first token after complete (first at line %d)", late, lateLine)
	if strings.Count(a.stderr, "impossible timing") != 1 || !strings.Contains(a.stderr, warn) ||
		!strings.Contains(a.stderr, fmt.Sprintf("%d sample(s) excluded", n)) {
		t.Errorf("stderr lacks %q once:\n%s", warn, a.stderr)
	}
	if get(a.json, "status") == "invalid_timing" {
		t.Errorf("status invalid_timing at %d of %v samples", n, get(a.json, "total.n_samples"))
	}
}
