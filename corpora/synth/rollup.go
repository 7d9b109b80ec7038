package synth

import (
	"fmt"
	"math"
	"slices"
)

// lowerPercentile is sorted[int(p·(n−1))], the convention of parity's
// simulated_per_sp.
func lowerPercentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(p*float64(len(sorted)-1))]
}

// median is the mean of the middle values of sorted.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// tracked returns the tracked requests in issue order.
func (s *sim) tracked() []*request {
	out := make([]*request, 0, s.issued)
	for i := range s.reqs {
		if s.reqs[i].track >= 0 && s.reqs[i].issueNs != 0 {
			out = append(out, &s.reqs[i])
		}
	}
	slices.SortFunc(out, func(a, b *request) int { return int(a.track - b.track) })
	return out
}

// superPassStats rolls up each super-pass from the logged timestamps.
func (s *sim) superPassStats(tracked []*request) []SuperPassStats {
	n := s.spec.DatasetSize
	var out []SuperPassStats
	for lo := 0; lo < len(tracked); lo += n {
		group := tracked[lo:min(lo+n, len(tracked))]
		st := SuperPassStats{SP: lo / n, NIssued: len(group)}
		var tpot, ttft, lat []float64
		first, last := group[0].issueNs, group[0].issueNs
		for _, r := range group {
			first, last = min(first, r.issueNs), max(last, r.issueNs)
			if r.firstNs != 0 {
				ttft = append(ttft, float64(r.firstNs-r.issueNs))
			}
			if r.completeNs != 0 {
				lat = append(lat, float64(r.completeNs-r.issueNs))
			}
			if r.fail == failNone && r.completeNs != 0 && r.firstNs != 0 && r.tokens > 1 && !r.noText {
				tpot = append(tpot, float64(r.completeNs-r.firstNs)/float64(r.tokens-1))
				st.OutTokens += int(r.tokens - 1)
			}
		}
		slices.Sort(tpot)
		slices.Sort(ttft)
		slices.Sort(lat)
		st.IssueSpanS = float64(last-first) / 1e9
		st.TPOTP50Ms = lowerPercentile(tpot, 0.5) / 1e6
		st.TPOTP90Ms = lowerPercentile(tpot, 0.9) / 1e6
		st.TPOTMedianMs = median(tpot) / 1e6
		st.TTFTP50Ms = lowerPercentile(ttft, 0.5) / 1e6
		st.TTFTP90Ms = lowerPercentile(ttft, 0.9) / 1e6
		st.LatencyP90S = lowerPercentile(lat, 0.9) / 1e9
		st.NTPOT = len(tpot)
		out = append(out, st)
	}
	return out
}

// planted computes the per-super-pass planted levels and the flat super-passes.
func (s *sim) planted(tracked []*request) Planted {
	sp := s.spec
	n := sp.DatasetSize
	base := sp.levelNs()
	p := Planted{
		TPOTBaseMs:        base / 1e6,
		FlatSPs:           []int{},
		ExactMedianSPs:    []int{},
		FlatRuns:          [][2]int{},
		ChangePointsSP:    []float64{},
		Steps:             []Step{},
		Drift:             []DriftTruth{},
		Noise:             []NoiseTruth{},
		JitterSigma:       sp.JitterSigma,
		BatchFactor:       BatchFactor{H0: sp.BatchH0, BRef: s.bref},
		DrainTimeoutS:     sp.DrainTimeoutS,
		OutputWordsMedian: float64(sp.OutputWords) * sp.OutputScale,
		OutputSigma:       sp.OutputSigma,
		MaxNewTokens:      sp.MaxNewTokens,
	}
	if sp.MaxDurationS > 0 {
		p.MaxDurationS = &sp.MaxDurationS
	}
	if s.fullSinceSet {
		w := s.fullSinceSP
		p.WarmupEndSP = &w
	}
	for _, st := range sp.Steps {
		p.ChangePointsSP = append(p.ChangePointsSP, st.AtSuperPass)
		p.Steps = append(p.Steps, st)
	}
	if sp.RampFrom > 0 {
		kind := "exp"
		if sp.RampLinear {
			kind = "lin"
		}
		p.Ramp = &RampTruth{From: sp.RampFrom, LenSP: sp.RampLenSP, Kind: kind}
	}
	if sp.WaveAmp > 0 {
		p.Wave = &WaveTruth{Amp: sp.WaveAmp, PeriodSP: sp.WavePeriodSP}
	}
	if sp.Drift != 0 {
		p.Drift = append(p.Drift, DriftTruth{X0: 0, X1: float64(s.planned) / float64(n), Total: sp.Drift})
	}
	if sp.LevelNoiseSigma > 0 {
		p.Noise = append(p.Noise, NoiseTruth{Sigma: sp.LevelNoiseSigma, EpochSP: sp.NoiseEpochSP})
	}
	// shapeKey is the planted multiplier without noise: flat runs may not span a
	// step or drift, but noise is a per-super-pass property of a flat level.
	closedLoop := sp.Mode == ModeConcurrency
	shapeKey := func(r *request) float64 { return r.planted / s.noiseAt(int(r.track)) }
	runStart := -1
	var runKey float64
	closeRun := func(end int) {
		if runStart >= 0 {
			p.FlatRuns = append(p.FlatRuns, [2]int{runStart, end})
		}
		runStart = -1
	}
	for lo := 0; lo < len(tracked); lo += n {
		group := tracked[lo:min(lo+n, len(tracked))]
		var sum float64
		flat, exact := len(group) == n, len(group) == n
		for _, r := range group {
			sum += r.planted
			if r.planted != group[0].planted || r.completeNs == 0 || (closedLoop && !r.full && r.fail != failHTTP) {
				flat = false
			}
			if !r.full || r.fail != failNone || r.tokens < 2 || r.firstNs == 0 || r.noText {
				exact = false
			}
		}
		level := sum / float64(len(group))
		p.TPOTLevelMsPerSP = append(p.TPOTLevelMsPerSP, level/1e6)
		p.TPOTLevelMultPerSP = append(p.TPOTLevelMultPerSP, level/base)
		spIdx := lo / n
		if !flat {
			closeRun(spIdx)
			continue
		}
		p.FlatSPs = append(p.FlatSPs, spIdx)
		if exact && closedLoop {
			p.ExactMedianSPs = append(p.ExactMedianSPs, spIdx)
		}
		key := shapeKey(group[0])
		if runStart >= 0 && math.Abs(key/runKey-1) > 1e-12 {
			closeRun(spIdx)
		}
		if runStart < 0 {
			runStart, runKey = spIdx, key
		}
	}
	closeRun(len(tracked)/n + min(1, len(tracked)%n))
	return p
}

// Detector constants the verdict refers to (spec/detector.md, seed §5).
const (
	minTrendSuperPasses = 4    // MIN_TREND_N
	widestCoVBound      = 0.08 // largest default CoV bound
	minDurationFloorS   = 600  // T_floor
	relaxationFactor    = 5    // T_relaxation = 5 · L_p90
	driftVerdictMin     = 0.05 // TREND_REL_DRIFT_MIN, end-to-end
)

// verdict decides the outcome a correct detector should reach from the planted
// shape, then checks the first planted plateau against the wall-time gate.
func (s *sim) verdict(tracked []*request, p Planted) Verdict {
	sp := s.spec
	n := sp.DatasetSize
	fullSPs := len(tracked) / n
	warm := 0
	if p.WarmupEndSP != nil {
		warm = int(math.Ceil(*p.WarmupEndSP))
	}
	v := Verdict{}
	switch {
	case sp.Mode == ModeAgentic:
		v.Verdict, v.Reason = "not_supported", "agentic multi-turn steady-state detection is not supported; turns are not a dataset pass"
	case sp.Mode == ModeOffline:
		v.Verdict, v.Reason = "not_supported", "offline burst: every sample is issued at t0, so issue-time super-passes have no wall-time span"
	case len(tracked) < n:
		v.Verdict, v.Reason = "partial_dataset", fmt.Sprintf("%d tracked issues < dataset size %d: not one full pass", len(tracked), n)
	case s.planned <= sp.Concurrency:
		v.Verdict, v.Reason = "not_found", fmt.Sprintf("n_samples %d <= concurrency %d: the batch only fills and drains, there is no steady state", s.planned, sp.Concurrency)
	case fullSPs-warm < minTrendSuperPasses:
		v.Verdict, v.Reason = "insufficient_passes", fmt.Sprintf("%d full super-passes after a %d-super-pass ramp < %d", fullSPs-warm, warm, minTrendSuperPasses)
	case sp.LevelNoiseSigma >= widestCoVBound:
		v.Verdict, v.Reason = "not_found", fmt.Sprintf("per-super-pass level noise σ=%.2f exceeds the widest CoV bound %.2f", sp.LevelNoiseSigma, widestCoVBound)
	case sp.Drift >= driftVerdictMin:
		v.Verdict, v.Reason = "drifting_up", fmt.Sprintf("TPOT drifts %+.0f%% linearly over the run; no plateau", 100*sp.Drift)
	case sp.Drift <= -driftVerdictMin:
		v.Verdict, v.Reason = "drifting_down", fmt.Sprintf("TPOT drifts %+.0f%% linearly over the run; no plateau", 100*sp.Drift)
	case len(sp.Steps) > 0:
		v.Verdict, v.Reason = "anomaly", fmt.Sprintf("first plateau is steady; KV-eviction level shift(s) at super-pass %v should be flagged", p.ChangePointsSP)
	default:
		v.Verdict, v.Reason = "steady", "plateau after the admission ramp"
	}
	if sp.TruncateAt > 0 {
		v.Reason += "; run killed mid-way (no STOP/ENDED, last line cut)"
	}
	if v.Verdict != "steady" && v.Verdict != "anomaly" {
		return v
	}
	for _, run := range p.FlatRuns {
		if run[1]-run[0] >= minTrendSuperPasses {
			r := run
			v.PlateauSP = &r
			break
		}
	}
	if v.PlateauSP == nil {
		v.Reason += fmt.Sprintf("; but no run of >= %d flat super-passes was written", minTrendSuperPasses)
		return v
	}
	v.FoundNoMinDuration = true
	lo, hi := v.PlateauSP[0], v.PlateauSP[1]
	first, last := tracked[lo*n].issueNs, tracked[hi*n-1].issueNs
	v.PlateauSpanS = float64(last-first) / 1e9
	var lat []float64
	for _, r := range tracked[lo*n : hi*n] {
		if r.completeNs != 0 {
			lat = append(lat, float64(r.completeNs-r.issueNs)/1e9)
		}
	}
	slices.Sort(lat)
	need := math.Max(minDurationFloorS, relaxationFactor*lowerPercentile(lat, 0.9))
	v.Found = v.PlateauSpanS >= need
	if !v.Found {
		v.Reason += fmt.Sprintf("; plateau spans %.1f s < %.1f s required, so not found with the min-duration gate", v.PlateauSpanS, need)
	}
	return v
}
