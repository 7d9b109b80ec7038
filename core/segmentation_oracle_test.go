package core

// The quadratic segmentation of before issue 32, kept as the oracle of
// the incremental one: the plateau scans re-test every grown window from
// scratch (O(n) per test, O(P²) per scan), segmentSSE fills the whole
// k·n² table and mserStart recomputes every trim's exact PStdev. The
// production code must give the very same plateaus, SSEs and trims
// (checkSegmentationOracle, run over the parity, accuracy and synth runs
// by TestSegmentationOracle).

import (
	"fmt"
	"math"
	"slices"

	"github.com/steadysweep/steadysweep/core/stats"
)

// oracleEnsembleAdmissible is ensembleAdmissible as it was: every test
// rebuilds both trajectories and recomputes every statistic.
func oracleEnsembleAdmissible(pct []*spPercentiles, lo, hi int, g gateConfig, ens []EnsembleSetting,
	buf, buf2, tmp []float64) bool {
	gated := gatedMetrics()
	t50 := strictTrajectory(pct[lo:hi], gated[0], buf)
	t90 := strictTrajectory(pct[lo:hi], gated[1], buf2)
	if t50 == nil || t90 == nil || len(t50) < g.minN {
		return false
	}
	if !certifiedBySome(t50, t90, ens) {
		return false
	}
	for k, traj := range [2][]float64{t50, t90} {
		if gated[k] == mTPOTP50 && (hasStep(traj, g.relDriftMin) || hasNoiseStep(traj, g.shiftSDs, shiftMinRel, g.minN)) {
			return false
		}
		if math.Abs(relDrift(traj, tmp)) >= g.relDriftMin &&
			(*memoView)(nil).trend(g.gate, gated[k], lo, hi, traj, g.minN, g.alpha) != stats.VerdictSteady {
			return false
		}
	}
	return true
}

// certifiedBySome (the oracle's) is anyCertifies of the CoVs of t50 and t90, deciding
// each comparison by covAtMost (the exact CoV only near a bound).
func certifiedBySome(t50, t90 []float64, ens []EnsembleSetting) bool {
	for _, e := range ens {
		if covAtMost(t50, e.P50) && covAtMost(t90, e.P90) {
			return true
		}
	}
	return false
}

// oracleEnsemblePlateausFrom is ensemblePlateausFrom over
// oracleEnsembleAdmissible.
func oracleEnsemblePlateausFrom(pct []*spPercentiles, from int, g gateConfig, ens []EnsembleSetting) []Plateau {
	n := len(pct)
	buf, buf2, tmp := make([]float64, 0, n), make([]float64, 0, n), make([]float64, 0, n)
	out := growPlateaus(n-from, g.minN, func(lo, hi int) bool {
		return oracleEnsembleAdmissible(pct, from+lo, from+hi, g, ens, buf, buf2, tmp)
	}, nil)
	for i := range out {
		out[i].Lo, out[i].Hi = out[i].Lo+from, out[i].Hi+from
	}
	return out
}

// oracleSegmentPlateaus is the reference's segmentation by its
// definition: growPlateaus under windowAdmissible, every window tested
// from scratch.
func oracleSegmentPlateaus(pct []*spPercentiles, g gateConfig) []Plateau {
	return growPlateaus(len(pct), g.minN, func(lo, hi int) bool {
		return windowAdmissible(pct, lo, hi, g, nil, nil)
	}, nil)
}

// oracleSegmentSSE is segmentSSE's full O(k·n²) dynamic programme.
func oracleSegmentSSE(ys []float64, k, minFirst int) float64 {
	n := len(ys)
	s1 := make([]float64, n+1)
	s2 := make([]float64, n+1)
	for i, y := range ys {
		s1[i+1], s2[i+1] = s1[i]+y, s2[i]+y*y
	}
	cost := func(i, j int) float64 {
		m := float64(j - i)
		d := s1[j] - s1[i]
		return math.Max(0, (s2[j]-s2[i])-d*d/m)
	}
	prev := make([]float64, n+1)
	for j := range prev {
		prev[j] = math.Inf(1)
		if j >= max(minFirst, 1) {
			prev[j] = cost(0, j)
		}
	}
	for seg := 2; seg <= k; seg++ {
		cur := make([]float64, n+1)
		for j := range cur {
			cur[j] = math.Inf(1)
		}
		for j := seg; j <= n; j++ {
			for i := seg - 1; i < j; i++ {
				if c := prev[i] + cost(i, j); c < cur[j] {
					cur[j] = c
				}
			}
		}
		prev = cur
	}
	return prev[n]
}

// oracleMSERStart is mserStart recomputing every trim's exact PStdev.
func oracleMSERStart(pct []*spPercentiles, lo, hi, minN int) (s int, seFull, seBest float64) {
	var means []float64
	for i := lo; i < hi; i++ {
		if pct[i].ok[mTPOTP50] {
			means = append(means, pct[i].tpotMean)
		} else {
			means = append(means, math.NaN())
		}
	}
	s, seFull, seBest = lo, math.NaN(), math.Inf(1)
	xs := make([]float64, 0, len(means))
	for k := 0; k+minN <= len(means); k++ {
		xs = xs[:0]
		for _, v := range means[k:] {
			if !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		if len(xs) < 2 {
			continue
		}
		se := stats.PStdev(xs) / math.Sqrt(float64(len(xs)))
		if k == 0 {
			seFull = se
		}
		if se < seBest {
			s, seBest = lo+k, se
		}
	}
	if math.IsInf(seBest, 1) {
		seBest = math.NaN()
	}
	return s, seFull, seBest
}

// sameFloat reports bit-identical floats (any NaN equals any NaN).
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// checkSegmentationOracle analyses s under the default and the reference
// parameters and compares, on each analysis's post-warmup series, the
// production segmentation with the oracle: the ensemble plateaus (from
// the start and from every fifth super-pass), the reference plateaus
// under every trend gate, the least k-segment SSE of the tpot_p50
// trajectory (k = 2 … 6, first segment of 1 and of MinTrendN points) over
// the series and each plateau span, the MSER trim of every plateau and
// of the whole series, and the level-shift split (splitPoint) of every
// plateau span and from each plateau's start to the series' end. It returns the first difference, the number
// of comparisons made and the longest post-warmup series compared.
func checkSegmentationOracle(s *Samples, info RunInfo) (n, longest int, err error) {
	for _, p := range []Params{DefaultParams(), ReferenceParams()} {
		r, err := NewRun(s, info).analyze(p, true) // the window path, agentic runs included
		if err != nil {
			return n, longest, err
		}
		pct := r.pct
		longest = max(longest, len(pct))
		if len(pct) == 0 {
			continue
		}
		covMax := math.Inf(-1)
		for _, b := range r.CovBounds {
			covMax = math.Max(covMax, b)
		}
		g := gateConfig{gate: p.TrendGate, covMax: covMax, relDriftMin: p.TrendRelDriftMin, minN: p.MinTrendN,
			alpha: p.Alpha, shiftSDs: p.TailShiftSDs}
		ens := ensembleOf(r.CovBounds)
		for _, from := range []int{0, 1, 2, len(pct) / 3, len(pct) / 2} {
			got, want := ensemblePlateausFrom(pct, from, g, ens, nil, nil), oracleEnsemblePlateausFrom(pct, from, g, ens)
			if n++; !slices.Equal(got, want) {
				return n, longest, fmt.Errorf("%s: ensemble plateaus from %d %v, oracle %v", p.Compat, from, got, want)
			}
		}
		rg := g
		rg.shiftSDs = 0
		for _, gate := range stats.TrendAlgos {
			rg.gate = TrendGate(gate)
			got, want := segmentPlateaus(pct, rg, nil, nil), oracleSegmentPlateaus(pct, rg)
			if n++; !slices.Equal(got, want) {
				return n, longest, fmt.Errorf("%s %s: plateaus %v, oracle %v", p.Compat, gate, got, want)
			}
		}
		spans := []Plateau{{0, len(pct)}}
		spans = append(spans, r.Steady.Plateaus...)
		for _, sp := range spans {
			ys := trajectory(pct[sp.Lo:sp.Hi], mTPOTP50)
			for k := 2; k <= 6; k++ {
				for _, minFirst := range []int{1, p.MinTrendN} {
					got, want := segmentSSE(ys, k, minFirst, nil), oracleSegmentSSE(ys, k, minFirst)
					if n++; !sameFloat(got, want) {
						return n, longest, fmt.Errorf("%s: segmentSSE of [%d,%d) in %d (first ≥ %d) = %v, oracle %v",
							p.Compat, sp.Lo, sp.Hi, k, minFirst, got, want)
					}
				}
			}
			for _, hi := range []int{sp.Hi, len(pct)} {
				if got, want := splitPoint(pct, sp.Lo, hi), oracleSplitPoint(pct, sp.Lo, hi); got != want {
					return n, longest, fmt.Errorf("%s: splitPoint of [%d,%d) = %d, oracle %d", p.Compat, sp.Lo, hi, got, want)
				}
				n++
			}
			s1, f1, b1 := mserStart(pct, sp.Lo, sp.Hi, p.MinTrendN, nil)
			s2, f2, b2 := oracleMSERStart(pct, sp.Lo, sp.Hi, p.MinTrendN)
			if n++; s1 != s2 || !sameFloat(f1, f2) || !sameFloat(b1, b2) {
				return n, longest, fmt.Errorf("%s: MSER of [%d,%d) = %d %v %v, oracle %d %v %v",
					p.Compat, sp.Lo, sp.Hi, s1, f1, b1, s2, f2, b2)
			}
		}
	}
	return n, longest, nil
}

// CheckSegmentationOracle is checkSegmentationOracle for the external
// test, which decodes the shared and generated runs.
var CheckSegmentationOracle = checkSegmentationOracle
