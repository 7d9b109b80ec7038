package resultjson

import (
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// peerWindow is the recording tool's own measurement window beside ours
// (null when the log records none): its source, its start and end (ns,
// the run's clock), ours — the reported window's first issue and last
// event — and the differences ours − theirs in seconds (null without a
// window of ours).
func peerWindow(r *core.Result) any {
	info := r.RunInfo()
	pw := info.PeerWindow
	if pw == nil {
		return nil
	}
	var oursStart, oursEnd, dStart, dEnd any
	as := r.Assessment
	if sp := r.SuperPasses(); as != nil && as.Window.Ok() && as.Window.Len() > 0 && int(as.Window.Hi) <= len(sp) {
		lo, hi := sp[as.Window.Lo].FirstIssueNs, sp[as.Window.Last()].LastEventNs
		oursStart, oursEnd = lo, hi
		dStart, dEnd = num(float64(lo-pw.StartNs)/1e9), num(float64(hi-pw.EndNs)/1e9)
	}
	return pyjson.Object{
		{Key: "source", Value: pw.Source},
		{Key: "start_ns", Value: pw.StartNs}, {Key: "end_ns", Value: pw.EndNs},
		{Key: "duration_s", Value: num(float64(pw.EndNs-pw.StartNs) / 1e9)},
		{Key: "ours_start_ns", Value: oursStart}, {Key: "ours_end_ns", Value: oursEnd},
		{Key: "start_diff_s", Value: dStart}, {Key: "end_diff_s", Value: dEnd},
	}
}
