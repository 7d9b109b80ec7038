package foreign

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
	"github.com/steadysweep/steadysweep/core"
)

// AIPerfSteadyStateNames are the steady-state files looked for beside an
// AIPerf log. AIPerf's steady-state analysis (--steady-state; ai-dynamo/aiperf
// src/aiperf/post_processors/steady_state_analyzer.py @
// 37f585420e558fdeb15c4a3bc44dfd2a8c355e42) is not in the summary
// (profile_export_aiperf.json: src/aiperf/exporters/metrics_json_exporter.py
// @ 047d59dd4bca43ff272f46c6b4af0ebb62cb8ad0 writes JsonExportData, no
// steady-state key) but in a file of its own,
// artifacts.profile_export_steady_state_json_file =
// profile_export_{prefix}_steady_state.json, written by
// src/aiperf/exporters/steady_state_json_exporter.py @
// 3d522d48f37388cf174227e08e11cf5eb7accaa7 as
// {"window_metadata": SteadyStateWindowMetadata.to_dict(), "metrics": {…}}.
var AIPerfSteadyStateNames = []string{"profile_export_aiperf_steady_state.json"}

// aiperfWindowMetadata is the part of window_metadata read
// (src/aiperf/post_processors/steady_state_models.py @
// 217d68df578c842d82d2f8f5fa3234ab8f73856e, to_dict): the window's bounds
// are ramp_up_end_ns and ramp_down_start_ns, on the clock of the column
// store's start_ns — metadata.request_start_ns, time.time_ns()
// (src/aiperf/metrics/accumulator.py process_record) — the clock our
// AIPerf issue times are on; detection_method names how it was found
// ("user_override" when --steady-state-start/end-pct set it).
type aiperfWindowMetadata struct {
	WindowMetadata *struct {
		DetectionMethod string          `json:"detection_method"`
		RampUpEndNs     contract.OptNum `json:"ramp_up_end_ns"`
		RampDownStartNs contract.OptNum `json:"ramp_down_start_ns"`
	} `json:"window_metadata"`
}

// aiperfSteadyWindow reads AIPerf's steady-state window from the file
// beside the log as the peer window; nil when there is none. A file that
// is not JSON, or whose bounds are not numbers in order, is a warning
// naming the file and the field, and gives no window.
func aiperfSteadyWindow(dir string, warnings *[]string) *core.PeerWindow {
	for _, name := range AIPerfSteadyStateNames {
		path := filepath.Join(dir, name)
		b, err := readBounded(path, maxSummary)
		if err != nil {
			continue
		}
		var doc aiperfWindowMetadata
		if err := json.Unmarshal(b, &doc); err != nil {
			*warnings = append(*warnings, fmt.Sprintf("%s: AIPerf steady-state file unreadable: %v", path, err))
			return nil
		}
		m := doc.WindowMetadata
		if m == nil {
			*warnings = append(*warnings, fmt.Sprintf("%s: window_metadata: required field missing (no steady-state window read)", path))
			return nil
		}
		field := func(f string) string { return path + ": window_metadata." + f }
		s, okS := nsValue(m.RampUpEndNs)
		e, okE := nsValue(m.RampDownStartNs)
		switch {
		case !m.RampUpEndNs.Set || !okS:
			*warnings = append(*warnings, field("ramp_up_end_ns")+": not a time in ns (no steady-state window read)")
		case !m.RampDownStartNs.Set || !okE:
			*warnings = append(*warnings, field("ramp_down_start_ns")+": not a time in ns (no steady-state window read)")
		case e <= s:
			*warnings = append(*warnings, field("ramp_down_start_ns")+": not after ramp_up_end_ns (no steady-state window read)")
		default:
			src := "aiperf window_metadata.ramp_up_end_ns/ramp_down_start_ns"
			if m.DetectionMethod != "" {
				src += " (" + sidecar.OneLine(m.DetectionMethod) + ")"
			}
			return &core.PeerWindow{Source: src, StartNs: s, EndNs: e}
		}
		return nil
	}
	return nil
}

// nsValue is a time in ns as written: an integer exactly, a float (as
// numpy writes the window's bounds) rounded.
func nsValue(o contract.OptNum) (int64, bool) {
	if !o.Set {
		return 0, false
	}
	if o.IsInt {
		return o.Int, true
	}
	return contract.NsOf(o.Float, "ns")
}
