package htmlpage

import (
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// natlTable is the agentic path's result, its per-trajectory throughput
// (NATL) distribution, from the NATL dict of the result (§13) — on an
// agentic run the only result there is, so the page shows it in the
// Result section, as the text report's NATL block does, not only in the
// raw JSON. An empty table when res is not a NATL result.
func natlTable(res *resultjson.Record) table {
	n := res.NATL()
	if n == nil {
		return table{}
	}
	t := table{ID: "natl", Caption: "NATL (agentic per-trajectory throughput, experimental)", Head: []string{"", "value"}}
	row := func(name string, v value) { t.Rows = append(t.Rows, []cell{tcell(name), vcell(v)}) }
	row("trajectories", text(sinks.Count(n.NTrajectories, "trajectory")+" in "+
		sinks.Count(n.NSuperPasses, "super-pass")+" of "+sinks.Count(n.SuperpassTrajectories, "trajectory")))
	for _, q := range []struct {
		name string
		v    float64
	}{{"p10", n.P10}, {"p50", n.P50}, {"p90", n.P90}, {"p99", n.P99}, {"mean", n.Mean}} {
		row("NATL "+q.name+" (tok/s)", fixed(q.v, 1))
	}
	row("distribution CoV", fixed(n.CoV, 2))
	row("across-super-pass CoV", fixed(n.AcrossCoV, 3))
	row("batch-means SE", percentOf(n.BatchMeansSEPct))
	steady := value{Text: "NOT steady"}
	if n.Found {
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
