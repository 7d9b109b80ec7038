package resultjson

import (
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// peerWindow is the recording tool's own measurement window beside ours
// (null when the log records none): its source, its start and end (ns,
// the run's clock), ours — the reported window's first issue and last
// event — and the differences ours − theirs in seconds (null without a
// window of ours); core.Result.PeerComparison computes them, for the rows
// too.
func peerWindow(r *core.Result) any {
	c, ok := r.PeerComparison()
	if !ok {
		return nil
	}
	var oursStart, oursEnd any
	if c.HasOurs {
		oursStart, oursEnd = c.OursStartNs, c.OursEndNs
	}
	return pyjson.Object{
		{Key: "source", Value: c.Peer.Source},
		{Key: "start_ns", Value: c.Peer.StartNs}, {Key: "end_ns", Value: c.Peer.EndNs},
		{Key: "duration_s", Value: num(c.Peer.DurationS())},
		{Key: "ours_start_ns", Value: oursStart}, {Key: "ours_end_ns", Value: oursEnd},
		{Key: "start_diff_s", Value: num(c.StartDiffS)}, {Key: "end_diff_s", Value: num(c.EndDiffS)},
	}
}
