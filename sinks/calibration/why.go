package calibration

import (
	"fmt"
	"math"
	"strings"
)

// presetOrder is the order presets are compared in Why.
var presetOrder = []string{"reference", "reference/no-min-duration", "default", "default/no-min-duration"}

// ExplainRecommendation is the report's Why: the recommended (first)
// config's figures, the presets' figures, and the min-duration caveat
// when the recommended config has the gate off. r must rank a config.
func ExplainRecommendation(r *Report) string {
	best := &r.Configs[0]
	var b strings.Builder
	fmt.Fprintf(&b, "%s ranks first of %d configs: %s.", best.Label, len(r.Configs), headline(best))
	for _, name := range presetOrder {
		id, ok := r.Presets[name]
		if !ok || id == best.ConfigID {
			continue
		}
		c := r.Config(id)
		fmt.Fprintf(&b, " Preset %s (rank %d): %s.", name, c.Rank, headline(c))
	}
	if !best.MinDuration {
		gated := 0
		for i := range r.Configs {
			if r.Configs[i].MinDuration && r.Configs[i].Eligible == 0 {
				gated++
			}
		}
		if gated > 0 {
			fmt.Fprintf(&b, " It runs with min_duration=false: no run of this corpus has a plateau that clears the min-duration floor, so the %d gated configs have no eligible run and rank by the other keys only; keep the gate on for submissions — the recommendation is for the other parameters", gated)
		} else {
			b.WriteString(" It runs with min_duration=false; keep the gate on for submissions — the recommendation is for the other parameters")
		}
		var vals []string
		for _, a := range r.Axes {
			if a != "min_duration" {
				vals = append(vals, a+"="+shown(best.Params[a]))
			}
		}
		if len(vals) > 0 {
			b.WriteString(" (" + strings.Join(vals, ", ") + ")")
		}
		b.WriteString(".")
	}
	return b.String()
}

// headline is a config's ranking figures in words.
func headline(c *ConfigScore) string {
	return fmt.Sprintf("confident-but-wrong %s (%d of %d found), found rate %s (%d of %d eligible), median TPOT error %s, p95 %s, verdict agreement %s",
		pct(c.ConfidentWrongRate), c.ConfidentWrong, c.Found, pct(c.FoundRate), c.FoundEligible, c.Eligible,
		pct(c.ErrMedian), pct(c.ErrP95), pct(c.AgreeRate))
}

// pct formats a fraction as a percentage, with two decimals below 1 %
// and one above; "n/a" when undefined.
func pct(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	if math.Abs(x) < 0.01 {
		return fmt.Sprintf("%.2f %%", 100*x)
	}
	return fmt.Sprintf("%.1f %%", 100*x)
}

// num formats x with d decimals, "n/a" when undefined.
func num(x float64, d int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	return fmt.Sprintf("%.*f", d, x)
}
