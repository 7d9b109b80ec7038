package core

import (
	"fmt"
	"math"
	"slices"
)

// vllmBenchThreshold is vllm-bench's --steady-state-threshold default.
const vllmBenchThreshold = 0.95

// vllmBenchWindow is vLLM's Rust benchmark's steady-state window
// (vllm-project/vllm-bench, src/metrics/steady_state.rs, detect_window, at
// commit f3131823f167aa1e6f31a48be1ae15a18667a534; the default threshold
// 0.95 from src/cli.rs). Read there, restated here:
//
//   - It exists only for closed-loop runs: a target concurrency
//     (--max-concurrency; RunInfo.Concurrency here) is required, else no
//     window.
//   - threshold_abs = max(1, ⌈threshold × target⌉).
//   - Starts and ends of the successful requests are sorted apart and
//     merged, an end before a start at equal times; concurrency moves ±1
//     (never below 0).
//   - The window opens at the first start that lifts concurrency from
//     below threshold_abs to at least it (the first up-crossing) and
//     closes at the last end that drops it from at least threshold_abs to
//     below (the last down-crossing; the last end when there is none).
//     No up-crossing: no window.
//   - No request started or completed in [start, end): no window.
//
// Its TTFT and TPOT count the requests started in [start, end) (members).
func vllmBenchWindow(reqs []peerRequest, target int, threshold float64) peerTimeWindow {
	if target <= 0 {
		return peerTimeWindow{reason: "not a closed-loop concurrency run (vllm-bench needs --max-concurrency)"}
	}
	thr := max(int(math.Ceil(threshold*float64(target))), 1)
	starts, ends := make([]int64, len(reqs)), make([]int64, len(reqs))
	for i := range reqs {
		starts[i], ends[i] = reqs[i].start, reqs[i].end
	}
	if len(starts) == 0 {
		return peerTimeWindow{reason: "no successful request"}
	}
	slices.Sort(starts)
	slices.Sort(ends)
	conc, i, j := 0, 0, 0
	var up, down int64
	hasUp, hasDown := false, false
	for i < len(starts) || j < len(ends) {
		if j < len(ends) && (i == len(starts) || ends[j] <= starts[i]) {
			before := conc
			conc = max(conc-1, 0)
			if before >= thr && conc < thr {
				down, hasDown = ends[j], true
			}
			j++
			continue
		}
		before := conc
		conc++
		if before < thr && conc >= thr && !hasUp {
			up, hasUp = starts[i], true
		}
		i++
	}
	if !hasUp {
		return peerTimeWindow{reason: fmt.Sprintf("in-flight requests never reached %d (%.2f × %d)", thr, threshold, target)}
	}
	if !hasDown {
		down = ends[len(ends)-1]
	}
	w := peerTimeWindow{ok: true, start: up, end: down}
	w.member = func(r *peerRequest) bool { return r.start >= up && r.start < down }
	inWindow := false
	for k := range reqs {
		if w.member(&reqs[k]) || (reqs[k].end >= up && reqs[k].end < down) {
			inWindow = true
			break
		}
	}
	if !inWindow {
		return peerTimeWindow{reason: "no request started or completed in the window"}
	}
	return w
}
