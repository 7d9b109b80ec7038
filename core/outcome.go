package core

import (
	"math"
)

// Outcome is the flat, typed digest of one analysis: one value per column
// of a sweep row. Durations and latencies are in the unit their name says;
// NaN marks a value that does not exist for this run (no window, no TPOT).
// Indices of super-passes are absolute (warmup included), the end inclusive,
// so they mean the same thing under every parameter set.
type Outcome struct {
	// Status is the coverage status.
	Status Status
	// Partial reports a truncated or interrupted log.
	Partial bool
	// Verdict is the outcome ("" for an error row).
	Verdict Verdict
	// Reason explains a non-found or non-windowable outcome ("" otherwise).
	Reason string
	// Found is the detector's found flag.
	Found bool

	NSuperPasses  int
	SuperpassSize int
	Warmup        int
	NPlateaus     int
	// WindowStartSP and WindowEndSP bound the reported window (absolute,
	// end inclusive); -1 when there is none.
	WindowStartSP, WindowEndSP int
	WindowSamples              int
	WindowDurationS            float64
	MinDurationS               float64
	MinDurationDominant        string
	IsShort                    bool

	StateTPOTP50, StateTPOTP90 MetricState

	SteadyTTFTP50Ns, SteadyTTFTP90Ns, SteadyTTFTP99Ns float64
	SteadyTPOTP50Ns, SteadyTPOTP90Ns, SteadyTPOTP99Ns float64
	TotalTTFTP50Ns, TotalTTFTP90Ns, TotalTTFTP99Ns    float64
	TotalTPOTP50Ns, TotalTPOTP90Ns, TotalTPOTP99Ns    float64

	SteadyTPSPerUser, SteadyTPSPerUserCILo, SteadyTPSPerUserCIHi float64
	SteadyTPSSystem, SteadyTPSSystemCILo, SteadyTPSSystemCIHi    float64
	TotalTPSPerUser, TotalTPSSystem                              float64

	// NFailed and FailedFrac count the run's failed requests (Failures: a
	// fact of the log, the same under every compat).
	NFailed    int
	FailedFrac float64

	AnomalyDetected     bool
	ChangePointSP       int // absolute; -1 when none
	AnomalyDeltaPct     float64
	DriftingUp          []string
	TailCutApplied      bool
	EarlyStopTTFTP99Ns  float64 // NaN below the early-stopping floor
	EarlyStopTPOTP99Ns  float64
	GapTPSUpliftPct     float64
	GapTTFTP99ChangePct float64
	GapRetainedFrac     float64

	// StopAtS, StopSavedFrac and StopSavedS are the run's earliest stop
	// (EarliestStopOf; set by SetEarliestStop, NaN until then and without
	// one): seconds into the run, the share of the run's wall time after
	// it, and that wall time in seconds. StopAgrees reports the full run's
	// system TPS and TPOT p50 inside the stop's intervals (false without a
	// stop).
	StopAtS, StopSavedFrac, StopSavedS float64
	StopAgrees                         bool

	// CertTTFT … CertTPSSystem are the metric families' certifications
	// (Assessment.Certification; "" under the reference).
	CertTTFT, CertTPOT, CertLatency, CertTPSPerUser, CertTPSSystem CertState

	// PeerSource, PeerStartNs and PeerEndNs are the recording tool's own
	// measurement window (RunInfo.PeerWindow; PeerSource "" when its log
	// records none: HasPeer), on the run's clock; PeerStartDiffS
	// and PeerEndDiffS are our window's bounds minus its, in seconds (NaN
	// without either window): Result.PeerComparison, as the JSON's
	// peer_window has them.
	PeerSource                   string
	PeerStartNs, PeerEndNs       int64
	PeerStartDiffS, PeerEndDiffS float64
}

// SetEarliestStop records e, the earliest stop of the analysed run, in o.
func (o *Outcome) SetEarliestStop(e EarliestStop) {
	nan := math.NaN()
	o.StopAtS, o.StopSavedFrac, o.StopSavedS, o.StopAgrees = nan, nan, nan, false
	if e.Found {
		o.StopAtS, o.StopSavedFrac, o.StopSavedS, o.StopAgrees = e.StopAtS, e.SavedFrac, float64(e.SavedNs())/1e9, e.Agrees
	}
}

// HasPeer reports a peer window recorded in o (its source names it).
func (o *Outcome) HasPeer() bool { return o.PeerSource != "" }

// HasStop reports an earliest stop recorded in o.
func (o *Outcome) HasStop() bool { return !math.IsNaN(o.StopAtS) }

// Outcome returns the flat digest of r for a sweep row, in three steps:
// what every result has (outcomeBase), then the reference's decision
// (referenceOutcome) or steadysweep's assessment (assessedOutcome). Under
// the reference Status is derived from its found flag (referenceStatus),
// Verdict follows the found flag and the anomaly, and the fields the
// assessment adds are NaN/zero.
func (r *Result) Outcome() Outcome {
	out := r.outcomeBase()
	if r.Assessment == nil {
		r.referenceOutcome(&out)
	} else {
		r.assessedOutcome(&out)
	}
	out.PeerStartDiffS, out.PeerEndDiffS = math.NaN(), math.NaN()
	if c, ok := r.PeerComparison(); ok {
		out.PeerSource, out.PeerStartNs, out.PeerEndNs = c.Peer.Source, c.Peer.StartNs, c.Peer.EndNs
		out.PeerStartDiffS, out.PeerEndDiffS = c.StartDiffS, c.EndDiffS
	}
	return out
}

// outcomeBase fills the fields every result has and sets the rest to
// their "none" values.
func (r *Result) outcomeBase() Outcome {
	nan := math.NaN()
	nanQ := Quantiles{nan, nan, nan}
	out := Outcome{
		Found: r.Steady.Found, NSuperPasses: r.NSuperPasses, SuperpassSize: r.SuperpassSize,
		Warmup: r.Warmup, NPlateaus: len(r.Steady.Plateaus),
		WindowStartSP: -1, WindowEndSP: -1, WindowDurationS: nan, MinDurationS: nan,
		ChangePointSP: -1, AnomalyDeltaPct: nan,
		DriftingUp:         append([]string(nil), r.Steady.DriftingUp...),
		EarlyStopTTFTP99Ns: nan, EarlyStopTPOTP99Ns: nan,
		GapTPSUpliftPct: nan, GapTTFTP99ChangePct: nan, GapRetainedFrac: nan,
		StopAtS: nan, StopSavedFrac: nan, StopSavedS: nan,
	}
	if r.run != nil {
		f := r.run.health().failures
		out.NFailed, out.FailedFrac = f.NFailed, f.Frac
	}
	out.setSteadyTTFT(nanQ)
	out.setSteadyTPOT(nanQ)
	out.setTotalTTFT(nanQ)
	out.setTotalTPOT(nanQ)
	out.SteadyTPSPerUser, out.SteadyTPSPerUserCILo, out.SteadyTPSPerUserCIHi = nan, nan, nan
	out.SteadyTPSSystem, out.SteadyTPSSystemCILo, out.SteadyTPSSystemCIHi = nan, nan, nan
	out.TotalTPSPerUser, out.TotalTPSSystem = nan, nan
	if sw := r.Steady.ShortWindow; sw != nil {
		out.MinDurationS, out.MinDurationDominant, out.IsShort = sw.MinDurationS, sw.Dominant, sw.IsShort
	}
	if t := r.Steady.TPS; t != nil {
		out.SteadyTPSPerUser, out.SteadyTPSPerUserCILo, out.SteadyTPSPerUserCIHi = t.PerUser, t.PerUserCI[0], t.PerUserCI[1]
		out.SteadyTPSSystem, out.SteadyTPSSystemCILo, out.SteadyTPSSystemCIHi = t.System, t.SystemCI[0], t.SystemCI[1]
	}
	return out
}

// referenceOutcome fills the window, verdict and anomaly of a reference
// result.
func (r *Result) referenceOutcome(out *Outcome) {
	out.Status = referenceStatus(r)
	out.Reason = referenceReason(r, out.Status)
	out.Verdict = VerdictNotFound
	if r.Steady.Found {
		out.Verdict = VerdictSteadyState
	}
	if a := r.Steady.Anomaly; a.Detected {
		out.Verdict = VerdictAnomaly
		out.AnomalyDetected = true
		out.ChangePointSP = r.Warmup + a.ChangePointSP
		out.AnomalyDeltaPct = a.DeltaPct
	}
	if w := r.Steady.Window; w != nil {
		out.WindowStartSP, out.WindowEndSP = r.Warmup+w.SPLo, r.Warmup+w.SPHi-1
		out.WindowSamples = w.NSamples
		if sw := r.Steady.ShortWindow; sw != nil {
			out.WindowDurationS = sw.WindowDurationS
		}
	}
	if s := r.Steady.TTFT; s != nil {
		out.setSteadyTTFT(quantiles3(*s))
	}
	if s := r.Steady.TPOT; s != nil {
		out.setSteadyTPOT(quantiles3(*s))
	}
	// The reference reports no whole-run numbers, but they are computable
	// from the run (WholeRun, the same computation steadysweep's total
	// block uses): a reference row's total_* columns hold them, not null.
	if t := r.WholeRun(); t != nil {
		out.setTotalTTFT(t.TTFT)
		out.setTotalTPOT(t.TPOT)
		out.TotalTPSPerUser, out.TotalTPSSystem = t.TPSPerUser, t.TPSSystem
	}
}

// assessedOutcome fills the fields of a steadysweep result from its
// assessment.
func (r *Result) assessedOutcome(out *Outcome) {
	as := r.Assessment
	out.Status, out.Partial, out.Verdict, out.Reason = as.Status, as.Partial, as.Verdict, as.Reason
	out.Found = false
	if as.Status == StatusWindowable && as.Verdict != VerdictDriftingUp && as.Verdict != VerdictDriftingDown {
		out.Found = r.Steady.Found || as.Offline != nil
	}
	if w := as.Window; w.Ok() {
		// The window's own record: the submission block may drop it.
		out.WindowStartSP, out.WindowEndSP = int(w.Lo), int(w.Last())
		if w := r.Steady.Window; w != nil {
			out.WindowSamples = w.NSamples
		}
		out.WindowDurationS = float64(issueSpanNs(r.series[w.Lo:w.Hi])) / 1e9
	}
	gs := as.Selection.GatingStates()
	out.StateTPOTP50, out.StateTPOTP90 = gs[0], gs[1]
	if st := as.Steady; st != nil {
		out.setSteadyTTFT(st.TTFT)
		out.setSteadyTPOT(st.TPOT)
		if as.Offline != nil {
			out.WindowSamples, out.WindowDurationS = st.NSamples, st.DurationS
		}
	}
	if t := as.Total; t != nil {
		out.setTotalTTFT(t.TTFT)
		out.setTotalTPOT(t.TPOT)
		out.TotalTPSPerUser, out.TotalTPSSystem = t.TPSPerUser, t.TPSSystem
	}
	if a := r.Steady.Anomaly; a.Detected {
		out.AnomalyDetected, out.ChangePointSP, out.AnomalyDeltaPct = true, r.Warmup+a.ChangePointSP, a.DeltaPct
	}
	out.TailCutApplied = as.TailCut.Applied
	es := &as.EarlyStop.Total
	if as.EarlyStop.Steady != nil {
		es = as.EarlyStop.Steady
	}
	if es.TTFT.OK != nil && es.TTFT.OK[earlyStopP99] {
		out.EarlyStopTTFTP99Ns = es.TTFT.Values[earlyStopP99]
	}
	if es.TPOT.OK != nil && es.TPOT.OK[earlyStopP99] {
		out.EarlyStopTPOTP99Ns = es.TPOT.Values[earlyStopP99]
	}
	out.GapTPSUpliftPct, out.GapTTFTP99ChangePct, out.GapRetainedFrac = as.Gap.TPSUpliftPct, as.Gap.TTFTP99ChangePct, as.Gap.RetainedFrac
	if c := as.Certification; c != nil {
		out.CertTTFT, out.CertTPOT, out.CertLatency = c.State(FamilyTTFT), c.State(FamilyTPOT), c.State(FamilyLatency)
		out.CertTPSPerUser, out.CertTPSSystem = c.State(FamilyTPSPerUser), c.State(FamilyTPSSystem)
	}
}

func (o *Outcome) setSteadyTTFT(q Quantiles) {
	o.SteadyTTFTP50Ns, o.SteadyTTFTP90Ns, o.SteadyTTFTP99Ns = q.P50, q.P90, q.P99
}

func (o *Outcome) setSteadyTPOT(q Quantiles) {
	o.SteadyTPOTP50Ns, o.SteadyTPOTP90Ns, o.SteadyTPOTP99Ns = q.P50, q.P90, q.P99
}

func (o *Outcome) setTotalTTFT(q Quantiles) {
	o.TotalTTFTP50Ns, o.TotalTTFTP90Ns, o.TotalTTFTP99Ns = q.P50, q.P90, q.P99
}

func (o *Outcome) setTotalTPOT(q Quantiles) {
	o.TotalTPOTP50Ns, o.TotalTPOTP90Ns, o.TotalTPOTP99Ns = q.P50, q.P90, q.P99
}

// referenceReason is the row reason of a reference-compat result, so a
// row's null steady values always carry one: what referenceStatus derived
// for the two statuses the reference does not decide itself, else the
// reference's own reason (its JSON keeps that one).
func referenceReason(r *Result, status Status) string {
	switch {
	case status == StatusNotSupported:
		return "agentic NATL path: per-trajectory throughput only, no steady window"
	case lessThanOnePass(r):
		return shortReason(r)
	case r.Steady.Found || r.Steady.Reason != "":
		return r.Steady.Reason
	}
	return "no admissible steady plateau"
}
