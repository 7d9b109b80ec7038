package calibrate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/steadysweep/steadysweep/sinks/calibration"
)

// truthFile is the name of the planted-truth file in a run directory.
const truthFile = "truth.json"

// truthPath returns where runPath's truth.json would be: inside a run
// directory, or beside a run that is an events file.
func truthPath(runPath string) string {
	if st, err := os.Stat(runPath); err == nil && !st.IsDir() {
		return filepath.Join(filepath.Dir(runPath), truthFile)
	}
	return filepath.Join(runPath, truthFile)
}

// loadTruth reads runPath's truth.json. A missing file is (nil, nil).
func loadTruth(runPath string) (*synth.Truth, error) {
	path := truthPath(runPath)
	data, err := safeopen.ReadFile(path, "truth.json", safeopen.LimitTruth)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read truth: %w", err)
	}
	var t synth.Truth
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return &t, nil
}

// truthSPs converts a row's window [start, end] (absolute super-passes
// of size used, end inclusive) to the truth super-passes [lo, hi) it
// touches: super-passes are cut by issue position, so sp of size S spans
// issues [sp·S, (sp+1)·S). used ≤ 0 means the truth's own size.
func truthSPs(t *synth.Truth, start, end, used int) (lo, hi int) {
	n := t.SuperpassSize
	if n <= 0 {
		n = t.DatasetSize
	}
	if used <= 0 || n <= 0 {
		return start, end + 1
	}
	lo = start * used / n
	hi = ((end+1)*used + n - 1) / n
	return lo, hi
}

// plantedTPOTNs is the planted TPOT level (ns) of the truth super-passes
// [lo, hi): the median of their planted levels, only the flat ones
// (planted.flat_sps) when any is flat. ok is false when the range holds
// no planted level.
func plantedTPOTNs(t *synth.Truth, lo, hi int) (ns float64, ok bool) {
	levels := t.Planted.TPOTLevelMsPerSP
	lo, hi = max(lo, 0), min(hi, len(levels))
	var flat, all []float64
	for sp := lo; sp < hi; sp++ {
		v := levels[sp]
		if math.IsNaN(v) || v <= 0 {
			continue
		}
		all = append(all, v)
		if slices.Contains(t.Planted.FlatSPs, sp) {
			flat = append(flat, v)
		}
	}
	use := flat
	if len(use) == 0 {
		use = all
	}
	if len(use) == 0 {
		return math.NaN(), false
	}
	return calibration.Quantile(use, 0.5) * 1e6, true
}

// startTruthSP is the window start in truth super-passes (fractional when
// the sizes differ).
func startTruthSP(t *synth.Truth, start, used int) float64 {
	n := t.SuperpassSize
	if n <= 0 {
		n = t.DatasetSize
	}
	if used <= 0 || n <= 0 {
		return float64(start)
	}
	return float64(start) * float64(used) / float64(n)
}

// hasPlateau reports whether truth plants a plateau a detector without
// the min-duration gate must report.
func hasPlateau(t *synth.Truth) bool { return t.ExpectedVerdict.FoundNoMinDuration }

// noSteadyState reports whether truth says there is no steady state to
// find at all (not merely an unsupported run shape).
func noSteadyState(t *synth.Truth) bool {
	switch t.ExpectedVerdict.Verdict {
	case "not_found", "drifting_up", "drifting_down", "insufficient_passes", "partial_dataset":
		return true
	}
	return false
}
