package core

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// sglangRatio is the concurrency ratio of the sglang preset. SGLang's
// --steady-state-concurrency-ratio has no default (it is required); 0.8
// is the value of the module's own usage example.
const sglangRatio = 0.8

// sglangWindow is SGLang's steady-state window (sgl-project/sglang,
// python/sglang/benchmark/steady_state.py, find_steady_state_window, at
// commit 41f869b4351b3def6e76bb6e41de02b62c6eff7c; the ratio is the
// required --steady-state-concurrency-ratio of steady_state_serving.py).
// Read there, restated here:
//
//   - Successful requests with a positive latency add +1 at their start
//     and −1 at their end; events at the same instant are netted.
//   - Between consecutive distinct event times the concurrency is
//     constant: the intervals [t_k, t_k+1) with the concurrency after
//     the events at t_k (the last event time opens none).
//   - peak is the largest interval concurrency; threshold = max(1,
//     ⌈peak × ratio⌉).
//   - The window is the longest run of consecutive intervals whose
//     concurrency is at least threshold (the first on ties).
//
// SGLang's windowed input-token rate counts the requests started in
// [start, end): those are the members here.
func sglangWindow(reqs []peerRequest, ratio float64) peerTimeWindow {
	type ev struct {
		t     int64
		delta int
	}
	evs := make([]ev, 0, 2*len(reqs))
	for i := range reqs {
		if reqs[i].lat > 0 {
			evs = append(evs, ev{reqs[i].start, 1}, ev{reqs[i].end, -1})
		}
	}
	if len(evs) == 0 {
		return peerTimeWindow{reason: "no successful request with a positive latency"}
	}
	slices.SortFunc(evs, func(a, b ev) int { return cmp.Compare(a.t, b.t) })
	// Net the events of each instant: times[k] and the concurrency after it.
	var times []int64
	var conc []int
	c := 0
	for k := 0; k < len(evs); {
		t := evs[k].t
		for ; k < len(evs) && evs[k].t == t; k++ {
			c += evs[k].delta
		}
		times, conc = append(times, t), append(conc, c)
	}
	peak := 0
	for k := range len(times) - 1 {
		peak = max(peak, conc[k])
	}
	thr := max(1, int(math.Ceil(float64(peak)*ratio)))
	bestLo, bestHi, best := int64(0), int64(0), int64(-1)
	for k := 0; k < len(times)-1; {
		if conc[k] < thr {
			k++
			continue
		}
		lo := times[k]
		for k < len(times)-1 && conc[k] >= thr {
			k++
		}
		if d := times[k] - lo; d > best {
			bestLo, bestHi, best = lo, times[k], d
		}
	}
	if best < 0 {
		return peerTimeWindow{reason: fmt.Sprintf("no interval with concurrency ≥ %d", thr)}
	}
	w := peerTimeWindow{ok: true, start: bestLo, end: bestHi}
	w.member = func(r *peerRequest) bool { return r.lat > 0 && r.start >= bestLo && r.start < bestHi }
	return w
}
