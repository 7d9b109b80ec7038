package columnar

import (
	"path/filepath"
	"strings"
	"testing"
)

// aiperfSteadyDir is an AIPerf 2026 run of three requests (issued at
// 1000 s, 2000 s, 3000 s) with steady, if not "", written beside it as
// profile_export_aiperf_steady_state.json.
func aiperfSteadyDir(t *testing.T, steady string) string {
	t.Helper()
	dir := t.TempDir()
	writeTemp(t, dir, "profile_export.jsonl", aiperf2026(0, 1_000_000_000_000, 1_000_300_000_000, "")+"\n"+
		aiperf2026(1, 2_000_000_000_000, 2_000_500_000_000, "")+"\n"+aiperf2026(2, 3_000_000_000_000, 3_000_100_000_000, "")+"\n")
	writeTemp(t, dir, "profile_export_aiperf.json", `{"input_config":{"endpoint":{"model_names":["m"]},"loadgen":{"concurrency":2}}}`)
	if steady != "" {
		writeTemp(t, dir, "profile_export_aiperf_steady_state.json", steady)
	}
	return dir
}

// aiperfSteady is a steady-state file as SteadyStateJsonExporter writes
// it (orjson, indented; window_metadata from
// SteadyStateWindowMetadata.to_dict, the bounds numpy floats).
func aiperfSteady(start, end string) string {
	return `{
  "window_metadata": {
    "detection_method": "cusum",
    "ramp_up_end_ns": ` + start + `,
    "ramp_down_start_ns": ` + end + `,
    "steady_state_duration_ns": 1.0e12,
    "total_requests": 3,
    "steady_state_requests": 1,
    "quality": {"fraction_retained": 0.3333333333333333, "variance_inflation_factor": 3.0, "effective_p99_sample_size": 0, "sample_size_warning": true},
    "stationarity": {"trend_correlation": null, "trend_p_value": null, "stationarity_warning": false},
    "cross_validation": {"cusum_ramp_up_end_ns": 1.5e12, "cusum_ramp_down_start_ns": 2.5e12}
  },
  "metrics": {"request_latency": {"unit": "ms", "avg": 500.0, "p50": 500.0}}
}`
}

// TestAIPerfSteadyState: AIPerf's own steady-state window (its own file,
// not the summary) is the peer window at ramp_up_end_ns and
// ramp_down_start_ns as written, on the records' request_start_ns clock,
// its detection method named; without the file there is none.
func TestAIPerfSteadyState(t *testing.T) {
	tab, s := ingestPath(t, aiperfSteadyDir(t, aiperfSteady("1.5e12", "2500000000000")))
	checkColumns(t, &s)
	pw := tab.Info.PeerWindow
	if s.Len() != 3 || pw == nil || pw.StartNs != 1_500_000_000_000 || pw.EndNs != 2_500_000_000_000 ||
		pw.Source != "aiperf window_metadata.ramp_up_end_ns/ramp_down_start_ns (cusum)" {
		t.Fatalf("%d samples, peer window %+v", s.Len(), pw)
	}
	if tab, _ := ingestPath(t, aiperfSteadyDir(t, "")); tab.Info.PeerWindow != nil {
		t.Errorf("peer window %+v without a steady-state file", tab.Info.PeerWindow)
	}
}

// TestAIPerfSteadyStateMalformed: a steady-state file that cannot give a
// window is one warning naming the file and the field; the run is read
// without a peer window.
func TestAIPerfSteadyStateMalformed(t *testing.T) {
	for _, tc := range []struct{ name, body, want string }{
		{"not JSON", `{"window_metadata": {`, `: AIPerf steady-state file unreadable`},
		{"no window_metadata", `{"metrics": {}}`, `: window_metadata: required field missing`},
		{"start a string", aiperfSteady(`"1.5e12"`, "2.5e12"), `: window_metadata.ramp_up_end_ns: not a time in ns`},
		{"end null", aiperfSteady("1.5e12", "null"), `: window_metadata.ramp_down_start_ns: not a time in ns`},
		{"end before start", aiperfSteady("2.5e12", "1.5e12"), `: window_metadata.ramp_down_start_ns: not after ramp_up_end_ns`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := aiperfSteadyDir(t, tc.body)
			warnings := strings.Join(ResolveWarnings(t, dir), "\n")
			if want := filepath.Join(dir, "profile_export_aiperf_steady_state.json") + tc.want; !strings.Contains(warnings, want) {
				t.Errorf("warnings %q, want %q", warnings, want)
			}
			if tab, s := ingestPath(t, dir); s.Len() != 3 || tab.Info.PeerWindow != nil {
				t.Errorf("%d samples, peer window %+v", s.Len(), tab.Info.PeerWindow)
			}
		})
	}
}

// TestAIPerfSummaryRunInfo: a summary whose run_info is empty, null or
// missing reads without a warning; model and load come from input_config.
func TestAIPerfSummaryRunInfo(t *testing.T) {
	for name, runInfo := range map[string]string{"empty": `"run_info":{},`, "null": `"run_info":null,`, "missing": ``} {
		t.Run(name, func(t *testing.T) {
			dir := aiperfSteadyDir(t, "")
			writeTemp(t, dir, "profile_export_aiperf.json", `{`+runInfo+`"input_config":{"endpoint":{"model_names":["m/x"]},"loadgen":{"concurrency":4}}}`)
			if w := ResolveWarnings(t, dir); len(w) != 0 {
				t.Errorf("warnings %q", w)
			}
			tab, s := ingestPath(t, dir)
			if s.Len() != 3 || tab.Info.Model != "m/x" || tab.Info.Concurrency != 4 || tab.Info.LoadPattern != "concurrency" {
				t.Errorf("%d samples, info %+v", s.Len(), tab.Info)
			}
		})
	}
}
