package htmlpage

import "github.com/steadysweep/steadysweep/sinks"

// natlTable is the agentic path's result, its per-trajectory throughput
// (NATL) distribution, from the NATL dict of the result (§13) — on an
// agentic run the only result there is, so the page shows it in the
// Result section, as the text report's NATL block does, not only in the
// raw JSON. An empty table when res is not a NATL result.
func natlTable(res node) table {
	if !has(res, "n_trajectories") {
		return table{}
	}
	t := table{ID: "natl", Caption: "NATL (agentic per-trajectory throughput, experimental)", Head: []string{"", "value"}}
	row := func(name string, v value) { t.Rows = append(t.Rows, []cell{tcell(name), vcell(v)}) }
	row("trajectories", text(sinks.Count(intAt(res, 0, "n_trajectories"), "trajectory")+" in "+
		sinks.Count(intAt(res, 0, "n_super_passes"), "super-pass")+" of "+sinks.Count(intAt(res, 0, "superpass_trajectories"), "trajectory")))
	for _, q := range []string{"p10", "p50", "p90", "p99", "mean"} {
		row("NATL "+q+" (tok/s)", fixed(numberAt(res, "distribution", q), 1))
	}
	row("distribution CoV", fixed(numberAt(res, "distribution", "cov"), 2))
	row("across-super-pass CoV", fixed(numberAt(res, "across_cov"), 3))
	row("batch-means SE", percentOf(numberAt(res, "batch_means_se_pct")))
	steady := value{Text: "NOT steady"}
	if boolAt(res, "found") {
		steady = value{Text: "steady (unvalidated)"}
	}
	row("across super-passes", steady)
	t.Note = "agentic steady-state detection is not supported: do not use these numbers for submissions or gating decisions"
	return t
}

// percentOf formats a value already in percent with one decimal.
func percentOf(pct float64) value {
	v := fixed(pct, 1)
	if !v.NA {
		v.Text += "%"
	}
	return v
}
