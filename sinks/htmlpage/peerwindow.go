package htmlpage

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/core"
)

// peerFields show the recording tool's own measurement window beside
// ours, as the result's peer_window has it (core.Result.PeerComparison):
// its source and length, and how much later or earlier our window starts
// and ends (ours − theirs). None when the log records no peer window.
func peerFields(r *core.Result) []field {
	c, ok := r.PeerComparison()
	if !ok || c.Peer.Source == "" {
		return nil
	}
	out := []field{{Name: "peer window", Value: text(fmt.Sprintf("%s · %s long",
		c.Peer.Source, seconds(c.Peer.DurationS()).Text))}}
	if !c.HasOurs || math.IsNaN(c.StartDiffS) || math.IsNaN(c.EndDiffS) {
		return append(out, field{Name: "ours vs the peer's", Value: na("no window of ours to compare")})
	}
	return append(out, field{Name: "ours vs the peer's", Value: text(fmt.Sprintf("starts %s, ends %s", shiftText(c.StartDiffS), shiftText(c.EndDiffS)))})
}

// shiftText words a difference ours − theirs of d seconds.
func shiftText(d float64) string {
	switch {
	case d > 0:
		return seconds(d).Text + " later"
	case d < 0:
		return seconds(-d).Text + " earlier"
	}
	return "at the same time"
}
