package synth

import "math"

// meanOutputTokens is the expected planted output length of a request.
func (s Spec) meanOutputTokens() float64 {
	return float64(s.OutputWords) * math.Exp(s.OutputSigma*s.OutputSigma/2) * s.OutputScale
}

// plannedIssues is the number of tracked issues the run plans.
func (s Spec) plannedIssues() int {
	return max(1, int(math.Round(s.Passes*float64(s.DatasetSize))))
}

// fullBatchLatencyNs estimates a request's end-to-end latency at the reference
// batch: network both ways, prefill, and decode of the mean output.
func (s *sim) fullBatchLatencyNs() float64 {
	prefill := s.prefillBaseNs + float64(s.spec.PromptWords)*s.prefillTokNs
	return 2*s.netNs + prefill + (s.spec.meanOutputTokens()-1)*s.spec.levelNs()
}

// defaultQPS is 80 % of the server's request capacity at the reference batch.
func (s *sim) defaultQPS() float64 {
	return 0.8 * float64(s.bref) / (s.fullBatchLatencyNs() / 1e9)
}

// start writes the session opening and schedules the first issues.
func (s *sim) start() {
	sp := s.spec
	startGap := 1.0e9 + 1.5e9*s.timing.Float64()
	s.lw.session(topicStarted, s.ts(-startGap))
	s.lw.session(topicStartTrack, s.ts(0))
	s.tracking = true
	if s.planned == 0 {
		s.planned = sp.plannedIssues()
	}
	if sp.TruncateAt > 0 {
		s.killAt = int(sp.TruncateAt * float64(s.planned))
	}
	if sp.MaxDurationS > 0 {
		s.schedule(sp.MaxDurationS*1e9, evMaxDuration, -1)
	}
	switch sp.Mode {
	case ModeConcurrency:
		s.startClosedLoop()
	case ModePoisson:
		if s.spec.QPS == 0 {
			s.spec.QPS = s.defaultQPS()
		}
		s.reserved++
		s.schedule(20e3, evIssue, s.newRequest(-1))
	case ModeOffline:
		s.reserved++
		s.schedule(20e3, evIssue, s.newRequest(-1))
	case ModeAgentic:
		s.agentic.start(s)
	}
}

// startClosedLoop staggers the client starts. With RampSuperPasses = R the last
// client starts after about R·N issues: during a linear stagger over T the
// clients issue about C·T/(2L) requests, L being a request's latency at the
// half-filled batch, so T = 2·L·R·N/C. R = 0 starts every client within
// microseconds (a burst).
func (s *sim) startClosedLoop() {
	sp := s.spec
	clients := min(sp.Concurrency, s.planned)
	s.clientSlot = make([]bool, sp.Concurrency)
	var spread float64
	if sp.RampSuperPasses > 0 && clients > 1 {
		halfBatch := (1 + sp.BatchH0) / 2
		l := s.fullBatchLatencyNs() - (sp.meanOutputTokens()-1)*sp.levelNs()*(1-halfBatch)
		spread = 2 * l * sp.RampSuperPasses * float64(sp.DatasetSize) / float64(sp.Concurrency) / float64(clients-1)
	}
	at := 20e3
	for j := 0; j < clients; j++ {
		s.reserved++
		s.schedule(at, evIssue, s.newRequest(int32(j)))
		if spread > 0 {
			at += spread
		} else {
			at += 5e3 + 20e3*s.timing.Float64()
		}
	}
}
