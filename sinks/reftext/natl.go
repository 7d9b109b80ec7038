package reftext

import (
	"strings"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// natl is the reference's NATL stdout: the report and the not-supported
// banner (§13).
func natl(n *core.NATLResult) string {
	var b strings.Builder
	b.WriteString("=== NATL (agentic per-trajectory throughput) ===\n")
	b.WriteString("  trajectories: " + itoa(n.NTrajectories) + "  (super-pass = " +
		itoa(n.SuperpassTrajectories) + " trajectories -> " + itoa(n.NSuperPasses) + " super-passes)\n")
	b.WriteString("  NATL tok/s: p10 " + pyjson.Fixed(n.P10, 1) + "  p50 " + pyjson.Fixed(n.P50, 1) +
		"  p90 " + pyjson.Fixed(n.P90, 1) + "  p99 " + pyjson.Fixed(n.P99, 1) + "  mean " + pyjson.Fixed(n.Mean, 1) +
		"  (distribution CoV " + pyjson.Fixed(n.CoV, 2) + ")\n")
	verdict := "NOT steady"
	if n.Found {
		verdict = "STEADY"
	}
	b.WriteString("  steadiness: across-super-pass CoV " + pyjson.Fixed(n.AcrossCoV, 3) + "  (batch-means SE " +
		pyjson.Fixed(n.BatchMeansSEPct, 1) + "%)  -> " + verdict + "\n")
	b.WriteString(agenticBanner())
	b.WriteString("\n")
	return b.String()
}

// agenticBanner is the reference's not-supported banner (§13).
func agenticBanner() string {
	msg := []string{
		"AGENTIC STEADY-STATE DETECTION IS NOT YET SUPPORTED.",
		"",
		"The NATL metric above is EXPERIMENTAL and REQUIRES FURTHER STUDY.",
		"Per-turn TTFT/TPOT do NOT converge on agentic multi-turn runs (structural",
		"server-side queue/eviction variance), so the standard steady-state window",
		"does not apply. NATL (per-trajectory throughput) is a promising candidate but",
		"is NOT validated for official reporting.",
		"",
		"DO NOT use these numbers for submissions or gating decisions.",
	}
	w := 0
	for _, m := range msg {
		w = max(w, len(m))
	}
	w += 6
	bar := strings.Repeat("#", w)
	lines := []string{"", bar, bar}
	for _, m := range msg {
		lines = append(lines, "##  "+m+strings.Repeat(" ", w-6-len(m))+"##")
	}
	lines = append(lines, bar, bar, "")
	return strings.Join(lines, "\n")
}
