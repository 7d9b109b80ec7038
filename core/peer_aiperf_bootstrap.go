package core

import (
	"cmp"
	"math"
	"slices"
)

// AIPerfCI are the bootstrap confidence intervals of AIPerf's
// steady-state detection (ai-dynamo/aiperf,
// src/aiperf/analysis/bootstrap.py bootstrap_detection at commit
// 37f585420e558fdeb15c4a3bc44dfd2a8c355e42). Each is [lo, hi] (NaN when
// fewer than two iterations gave a value). Times are ns as logged,
// latencies ns.
type AIPerfCI struct {
	RampUp, RampDown   [2]float64
	MeanLat, P99Lat    [2]float64
	Iterations, Blocks int
}

// AIPerfBootstrap runs AIPerf's circular block bootstrap of its window
// detection on the run's successful requests: n requests in start order,
// blocks of b = max(1, ⌊√n⌋) consecutive requests, ⌈n/b⌉ block starts
// drawn uniformly from 0…n−1 (wrapping), the first n positions kept; the
// detection (aiperfWindow, 10 % minimum window) reruns on each
// resample, and the windowed latencies (members) give a mean and a 99th
// percentile. Each interval is the (1−confidence)/2 and
// (1+confidence)/2 quantiles (linear interpolation, numpy's default) of
// the iterations' values. AIPerf runs it when
// AIPERF_STEADY_STATE_BOOTSTRAP_ITERATIONS is set (default: off) with
// confidence 0.95; its generator is numpy's unseeded default_rng, ours
// is SplitMix64 seeded by seed, so a run's intervals are reproducible.
func (run *Run) AIPerfBootstrap(iterations int, confidence float64, seed uint64) AIPerfCI {
	reqs := peerRequests(run.samples, nil)
	return aiperfBootstrap(reqs, iterations, confidence, seed)
}

func aiperfBootstrap(reqs []peerRequest, iterations int, confidence float64, seed uint64) AIPerfCI {
	n := len(reqs)
	out := AIPerfCI{Iterations: iterations}
	nan2 := [2]float64{math.NaN(), math.NaN()}
	out.RampUp, out.RampDown, out.MeanLat, out.P99Lat = nan2, nan2, nan2, nan2
	if n == 0 || iterations <= 0 {
		return out
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(reqs[a].start, reqs[b].start) })
	block := max(1, int(math.Sqrt(float64(n))))
	nBlocks := (n + block - 1) / block
	out.Blocks = nBlocks
	rng := splitMix64{state: seed}
	var ups, downs, means, p99s []float64
	boot := make([]peerRequest, n)
	var lat []float64
	for range iterations {
		k := 0
		for range nBlocks {
			s := rng.intn(n)
			for o := 0; o < block && k < n; o++ {
				r := reqs[order[(s+o)%n]]
				r.rank = k
				boot[k] = r
				k++
			}
		}
		w, _ := aiperfWindow(boot, aiperfMinWindowPct)
		if !w.ok {
			continue
		}
		ups, downs = append(ups, float64(w.start)), append(downs, float64(w.end))
		lat = lat[:0]
		for i := range boot {
			if w.member(&boot[i]) && !math.IsNaN(boot[i].lat) {
				lat = append(lat, boot[i].lat)
			}
		}
		if len(lat) > 0 {
			slices.Sort(lat)
			sum := 0.0
			for _, v := range lat {
				sum += v
			}
			means = append(means, sum/float64(len(lat)))
			p99s = append(p99s, quantileLinear(lat, 0.99))
		}
	}
	alpha := (1 - confidence) / 2
	ci := func(v []float64) [2]float64 {
		if len(v) < 2 {
			return nan2
		}
		slices.Sort(v)
		return [2]float64{quantileLinear(v, alpha), quantileLinear(v, 1-alpha)}
	}
	out.RampUp, out.RampDown, out.MeanLat, out.P99Lat = ci(ups), ci(downs), ci(means), ci(p99s)
	return out
}

// quantileLinear is numpy's default quantile of sorted (non-empty) s:
// h = (n−1)·q, s[⌊h⌋] + (h − ⌊h⌋)·(s[⌊h⌋+1] − s[⌊h⌋]).
func quantileLinear(s []float64, q float64) float64 {
	h := float64(len(s)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// splitMix64 is Steele, Lea and Flood's SplitMix64 generator (2014): a
// 64-bit state advanced by the golden-ratio increment and mixed by two
// xor-shift-multiplies. It is a value owned by its caller, so the package
// keeps no random state and a seed fixes the stream.
type splitMix64 struct{ state uint64 }

// next returns the next 64 random bits.
func (g *splitMix64) next() uint64 {
	g.state += 0x9e3779b97f4a7c15
	z := g.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a uniform integer in [0, n) (n > 0) by rejection of the
// 2⁶⁴ mod n lowest values, so there is no modulo bias.
func (g *splitMix64) intn(n int) int {
	un := uint64(n)
	limit := -un % un // (2⁶⁴ − n) mod n = 2⁶⁴ mod n
	for {
		if v := g.next(); v >= limit {
			return int(v % un)
		}
	}
}
