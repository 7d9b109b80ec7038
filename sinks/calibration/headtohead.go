package calibration

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/sinks/htmlpage"
)

// headToHead are the head-to-head table's configs: those a preset names,
// and the recommended one, in rank order.
func (r *Report) headToHead() []*ConfigScore {
	var out []*ConfigScore
	for i := range r.Configs {
		c := &r.Configs[i]
		if c.ConfigID == r.Recommended || r.presetNamed(c) {
			out = append(out, c)
		}
	}
	return out
}

// headToHeadTable is the per-class table: a row per truth class and
// detector (headToHead), with the class's found share on planted
// plateaus, its TPOT error quantiles, confident-but-wrong, level-shift
// and drift counts.
func (r *Report) headToHeadTable() htmlpage.CalibrationTable {
	t := htmlpage.CalibrationTable{Caption: "per truth class, detectors in rank order", Align: "llrrrrrr",
		Head: []string{"class", "detector", "runs", "found (plateau runs)", "TPOT err p50", "TPOT err p95",
			"confident-but-wrong", "shifts / drifts"}}
	cs := r.headToHead()
	for _, class := range r.Classes() {
		for _, c := range cs {
			k := c.ByClass[class]
			if k == nil {
				continue
			}
			found := fmt.Sprintf("%d/%d", k.FoundPlateau, k.PlateauRuns)
			if k.PlateauRuns == 0 {
				found = fmt.Sprintf("— (%d found)", k.Found)
			}
			t.Rows = append(t.Rows, []string{class, r.DetectorName(c), strconv.Itoa(k.Runs), found,
				pct(k.ErrMedian), pct(k.ErrP95), strconv.Itoa(k.ConfidentWrong),
				fmt.Sprintf("%d / %d", k.Shifts, k.Drifts)})
		}
	}
	return t
}

// writeHeadToHead writes the head-to-head table as Markdown.
func (r *Report) writeHeadToHead(p func(string, ...any)) {
	t := r.headToHeadTable()
	if len(t.Rows) == 0 {
		return
	}
	p("## Head-to-head by truth class\n\n%s\n\n", headToHeadText)
	p("| %s |\n|", strings.Join(t.Head, " | "))
	for i := range t.Head {
		if t.Align[i] == 'r' {
			p("---:|")
		} else {
			p("---|")
		}
	}
	p("\n")
	for _, row := range t.Rows {
		p("| %s |\n", strings.Join(row, " | "))
	}
	p("\n")
}

// headToHeadText explains the head-to-head table.
const headToHeadText = "The detectors a preset names (the peers' methods among them: aiperf, vllm-bench, sglang, guidellm) " +
	"and the recommended config, on each truth class (the truth's preset). found: rows found among the class's runs " +
	"with a planted plateau (— when it plants none; then every find is false); TPOT err: |window TPOT p50 − planted| / " +
	"planted, as in the ranking; confident-but-wrong: found and wrong by the ranking's rule; shifts: rows reporting a " +
	"level shift (anomaly_detected); drifts: rows with verdict drifting_up or drifting_down. A peer's window is judged " +
	"by steadysweep's assessment like every baseline: found is false when that window drifts."
