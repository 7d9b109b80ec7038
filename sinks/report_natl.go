package sinks

import (
	"fmt"

	"github.com/steadysweep/steadysweep/core"
)

// writeNATL prints the agentic path's per-trajectory throughput (NATL),
// which replaces the window diagnostics on agentic runs, with the
// reference's warning that it is not validated.
func writeNATL(b *reportBuilder, n *core.NATLResult) {
	b.heading("NATL (agentic per-trajectory throughput, experimental)")
	b.line(fmt.Sprintf("  %d trajectories in %d super-passes of %d trajectories",
		n.NTrajectories, n.NSuperPasses, n.SuperpassTrajectories))
	b.line(fmt.Sprintf("  NATL tok/s  p10 %s · p50 %s · p90 %s · p99 %s · mean %s (distribution CoV %s)",
		fixed(n.P10, 1), fixed(n.P50, 1), fixed(n.P90, 1), fixed(n.P99, 1), fixed(n.Mean, 1), fixed(n.CoV, 2)))
	steady := b.p.paint(bad, "NOT steady")
	if n.Found {
		steady = b.p.paint(warn, "steady (unvalidated)")
	}
	b.line(fmt.Sprintf("  across-super-pass CoV %s (batch-means SE %s%%): %s",
		fixed(n.AcrossCoV, 3), fixed(n.BatchMeansSEPct, 1), steady))
	b.line("  " + b.p.paint(warn, "agentic steady-state detection is not supported: "+
		"do not use these numbers for submissions or gating decisions"))
}
