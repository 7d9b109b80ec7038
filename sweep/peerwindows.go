package sweep

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/core/stats"
	"github.com/steadysweep/steadysweep/sinks"
)

// PeerTally compares, for one parameter set, our windows with the
// recording tools' own (GuideLLM's measure window, vllm-bench's
// steady_state, AIPerf's steady-state block): the rows whose run records
// one, and the differences ours − theirs (s) of those that also have a
// window of ours — the rows' peer_window_start_diff_s and
// peer_window_end_diff_s, so the summary and the rows are one computation.
type PeerTally struct {
	// Config is the parameter set's label (its config_id when unlabelled).
	Config string
	// Runs counts the rows whose run records a peer window.
	Runs int
	// StartDiffS and EndDiffS are the rows' differences, one per row with
	// both windows.
	StartDiffS, EndDiffS []float64
}

// addPeer counts row r in the tallies (rows without a peer window are
// not counted).
func (s *Summary) addPeer(r *sinks.Row) {
	o := &r.Outcome
	if !o.HasPeer() {
		return
	}
	cfg := r.ConfigLabel
	if cfg == "" {
		cfg = r.ConfigID
	}
	i := slices.IndexFunc(s.Peers, func(t PeerTally) bool { return t.Config == cfg })
	if i < 0 {
		s.Peers = append(s.Peers, PeerTally{Config: cfg})
		i = len(s.Peers) - 1
	}
	t := &s.Peers[i]
	t.Runs++
	if !math.IsNaN(o.PeerStartDiffS) && !math.IsNaN(o.PeerEndDiffS) {
		t.StartDiffS = append(t.StartDiffS, o.PeerStartDiffS)
		t.EndDiffS = append(t.EndDiffS, o.PeerEndDiffS)
	}
}

// PeerLines are the summary's comparison with the tools' own windows, one
// line per parameter set with rows recording one (sorted by label; the
// label named only when the sweep has several sets): how many runs record
// one, and on median how much later (earlier) our window starts and ends
// (stats.Median of the rows' differences). None when no run records a
// peer window.
func (s Summary) PeerLines() []string {
	ts := slices.Clone(s.Peers)
	slices.SortFunc(ts, func(a, b PeerTally) int { return strings.Compare(a.Config, b.Config) })
	var out []string
	for _, t := range ts {
		l := "peer windows"
		if s.Configs > 1 {
			l += " (" + t.Config + ")"
		}
		verb := "record"
		if t.Runs == 1 {
			verb = "records"
		}
		l += fmt.Sprintf(": %s %s the tool's own", sinks.Count(t.Runs, "run"), verb)
		if n := len(t.StartDiffS); n == 0 {
			l += "; none has a window of ours to compare"
		} else {
			l += fmt.Sprintf("; on median ours starts %s and ends %s (%s with both windows)",
				shift(stats.Median(t.StartDiffS)), shift(stats.Median(t.EndDiffS)), sinks.Count(n, "run"))
		}
		out = append(out, l)
	}
	return out
}

// shift words a difference ours − theirs of d seconds.
func shift(d float64) string {
	switch {
	case d > 0:
		return seconds(d) + " later"
	case d < 0:
		return seconds(-d) + " earlier"
	}
	return "at the same time"
}

// seconds formats a duration as the text report and the pages do: whole
// seconds from 100 s up, else one decimal.
func seconds(s float64) string {
	if s >= 100 {
		return fmt.Sprintf("%.0f s", s)
	}
	return fmt.Sprintf("%.1f s", s)
}
