package core

import "math"

// Outcome returns the flat digest of r for a sweep row. Under compat
// "steadysweep" every field is filled from Ours (EarlyStop* are the
// steady window's estimates, the tracked run's without a window); under
// "reference" Status is "" and the fields Ours adds are NaN/zero, while
// Verdict follows the reference's found flag and anomaly.
func (r *Result) Outcome() Outcome {
	nan := math.NaN()
	out := Outcome{
		Found: r.Steady.Found, NSuperPasses: r.NSuperPasses, SuperpassSize: r.SuperpassSize,
		Warmup: r.Warmup, NPlateaus: len(r.Steady.Plateaus),
		WindowStartSP: -1, WindowEndSP: -1, WindowDurationS: nan, MinDurationS: nan,
		ChangePointSP: -1, AnomalyDeltaPct: nan,
		DriftingUp:         append([]string(nil), r.Steady.DriftingUp...),
		EarlyStopTTFTP99Ns: nan, EarlyStopTPOTP99Ns: nan,
		GapTPSUpliftPct: nan, GapTTFTP99ChangePct: nan, GapRetainedFrac: nan,
	}
	setQ := func(dst [3]*float64, q Quantiles) { *dst[0], *dst[1], *dst[2] = q.P50, q.P90, q.P99 }
	nanQ := Quantiles{nan, nan, nan}
	setQ([3]*float64{&out.SteadyTTFTP50Ns, &out.SteadyTTFTP90Ns, &out.SteadyTTFTP99Ns}, nanQ)
	setQ([3]*float64{&out.SteadyTPOTP50Ns, &out.SteadyTPOTP90Ns, &out.SteadyTPOTP99Ns}, nanQ)
	setQ([3]*float64{&out.TotalTTFTP50Ns, &out.TotalTTFTP90Ns, &out.TotalTTFTP99Ns}, nanQ)
	setQ([3]*float64{&out.TotalTPOTP50Ns, &out.TotalTPOTP90Ns, &out.TotalTPOTP99Ns}, nanQ)
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

	o := r.Ours
	if o == nil {
		out.Status = referenceStatus(r)
		out.Verdict = VerdictNotFound
		if r.Steady.Found {
			out.Verdict = VerdictSteadyState
		}
		if r.Steady.Anomaly.Detected {
			out.Verdict = VerdictAnomaly
			out.AnomalyDetected = true
			out.ChangePointSP = r.Warmup + r.Steady.Anomaly.ChangePointSP
			out.AnomalyDeltaPct = r.Steady.Anomaly.DeltaPct
		}
		if w := r.Steady.Window; w != nil {
			out.WindowStartSP, out.WindowEndSP = r.Warmup+w.SPLo, r.Warmup+w.SPHi-1
			out.WindowSamples = w.NSamples
			if sw := r.Steady.ShortWindow; sw != nil {
				out.WindowDurationS = sw.WindowDurationS
			}
		}
		if s := r.Steady.TTFT; s != nil {
			setQ([3]*float64{&out.SteadyTTFTP50Ns, &out.SteadyTTFTP90Ns, &out.SteadyTTFTP99Ns}, quantiles3(*s))
		}
		if s := r.Steady.TPOT; s != nil {
			setQ([3]*float64{&out.SteadyTPOTP50Ns, &out.SteadyTPOTP90Ns, &out.SteadyTPOTP99Ns}, quantiles3(*s))
		}
		return out
	}

	out.Status, out.Partial, out.Verdict, out.Reason = o.Status, o.Partial, o.Verdict, o.Reason
	if o.Status == StatusWindowable && o.Verdict != VerdictDriftingUp && o.Verdict != VerdictDriftingDown {
		out.Found = r.Steady.Found || o.Offline != nil
	} else {
		out.Found = false
	}
	if o.WinLo >= 0 {
		out.WindowStartSP, out.WindowEndSP = o.WinLo, o.WinHi-1
		out.WindowSamples = o.Submission.Window.NSamples
		out.WindowDurationS = o.Submission.Window.DurationS
	}
	out.StateTPOTP50, out.StateTPOTP90 = o.Selection.States[mTPOTP50], o.Selection.States[mTPOTP90]
	if st := o.Steady; st != nil {
		setQ([3]*float64{&out.SteadyTTFTP50Ns, &out.SteadyTTFTP90Ns, &out.SteadyTTFTP99Ns}, st.TTFT)
		setQ([3]*float64{&out.SteadyTPOTP50Ns, &out.SteadyTPOTP90Ns, &out.SteadyTPOTP99Ns}, st.TPOT)
		if o.Offline != nil {
			out.WindowSamples, out.WindowDurationS = st.NSamples, st.DurationS
			out.SteadyTPSSystem, out.SteadyTPSPerUser = st.TPSSystem, st.TPSPerUser
			out.SteadyTPSSystemCILo, out.SteadyTPSSystemCIHi = nan, nan
			out.SteadyTPSPerUserCILo, out.SteadyTPSPerUserCIHi = nan, nan
		}
	}
	if t := o.Total; t != nil {
		setQ([3]*float64{&out.TotalTTFTP50Ns, &out.TotalTTFTP90Ns, &out.TotalTTFTP99Ns}, t.TTFT)
		setQ([3]*float64{&out.TotalTPOTP50Ns, &out.TotalTPOTP90Ns, &out.TotalTPOTP99Ns}, t.TPOT)
		out.TotalTPSPerUser, out.TotalTPSSystem = t.TPSPerUser, t.TPSSystem
	}
	if o.Anomaly.Detected {
		out.AnomalyDetected, out.ChangePointSP, out.AnomalyDeltaPct = true, o.Anomaly.ChangePointSP, o.Anomaly.DeltaPct
	}
	out.TailCutApplied = o.TailCut.Applied
	es := &o.EarlyStop.Total
	if o.EarlyStop.Steady != nil {
		es = o.EarlyStop.Steady
	}
	p99 := 1 // index of 99 in EarlyStopGrid
	if es.TTFT.OK != nil && es.TTFT.OK[p99] {
		out.EarlyStopTTFTP99Ns = es.TTFT.Values[p99]
	}
	if es.TPOT.OK != nil && es.TPOT.OK[p99] {
		out.EarlyStopTPOTP99Ns = es.TPOT.Values[p99]
	}
	out.GapTPSUpliftPct, out.GapTTFTP99ChangePct, out.GapRetainedFrac = o.Gap.TPSUpliftPct, o.Gap.TTFTP99ChangePct, o.Gap.RetainedFrac
	return out
}
