package htmlpage

import "fmt"

// peerFields show the recording tool's own measurement window beside
// ours, as the result's peer_window has it: its source and length, and
// how much later or earlier our window starts and ends (start_diff_s,
// end_diff_s: ours − theirs). None when the log records no peer window.
func peerFields(res node) []field {
	pw := get(res, "peer_window")
	if pw == nil || !has(pw, "source") {
		return nil
	}
	out := []field{{Name: "peer window", Value: text(fmt.Sprintf("%s · %s long",
		stringAt(pw, "source"), seconds(numberAt(pw, "duration_s")).Text))}}
	ds, okS := number(get(pw, "start_diff_s"))
	de, okE := number(get(pw, "end_diff_s"))
	if !okS || !okE {
		return append(out, field{Name: "ours vs the peer's", Value: na("no window of ours to compare")})
	}
	return append(out, field{Name: "ours vs the peer's", Value: text(fmt.Sprintf("starts %s, ends %s", shiftText(ds), shiftText(de)))})
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
