package calibration

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/sinks"
)

// MaxListed caps the run lists of the report (and the rows kept for them).
const MaxListed = 20

// WriteMarkdown writes the calibration report: the recommendation and
// why, the ranking table, the confusion matrices of the recommended
// config and the presets, the plot, what was skipped, and how every
// figure is defined.
func (r *Report) WriteMarkdown(w io.Writer) error {
	pr := &printer{w: w}
	p := pr.printf
	p("# Calibration\n\n")
	if r.Intro != "" {
		p("%s\n\n", strings.TrimSpace(r.Intro))
	}
	p("%d rows over %d runs and %d configs", r.Rows, r.Runs, len(r.Configs))
	if r.Out != "" {
		p(" (sweep output `%s`)", r.Out)
	}
	p(". Runs skipped without truth.json: %d; with an unreadable one: %d. Runs with error rows: %d.\n\n",
		len(r.NoTruthRuns), len(r.BadTruth), len(r.ErrorRuns))

	best := r.Config(r.Recommended)
	if best == nil {
		p("No config to rank.\n")
		return pr.err()
	}
	p("## Recommendation\n\n**%s** (config_id `%s`).\n\n%s\n\n", best.Label, best.ConfigID, r.Why)
	if len(r.Axes) > 0 {
		p("| swept parameter | recommended |")
		for _, name := range presetOrder {
			if _, ok := r.Presets[name]; ok {
				p(" %s |", name)
			}
		}
		p("\n|---|---|")
		for _, name := range presetOrder {
			if _, ok := r.Presets[name]; ok {
				p("---|")
			}
		}
		p("\n")
		for _, a := range r.Axes {
			p("| %s (%s) | %s |", a, sinks.Abbrev(a), shown(best.Params[a]))
			for _, name := range presetOrder {
				if id, ok := r.Presets[name]; ok {
					p(" %s |", shown(r.Config(id).Params[a]))
				}
			}
			p("\n")
		}
		p("\n")
	}

	p("## Ranking\n\n")
	p("| rank | config | found rate | plateau found | agreement | TPOT err p50 | TPOT err p95 | plateau err p50 / p95 | confident-but-wrong | false found | start err p50 (abs) | error rows |\n")
	p("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for i := range r.Configs {
		c := &r.Configs[i]
		label := c.Label
		if c.ConfigID == r.Recommended {
			label = "**" + label + "**"
		}
		p("| %d | %s | %s (%d/%d) | %s (%d/%d) | %s | %s | %s | %s / %s | %s (%d/%d) | %d | %s (%s) | %d |\n",
			c.Rank, label, pct(c.FoundRate), c.FoundEligible, c.Eligible, pct(c.PlateauFoundRate), c.FoundPlateau, c.PlateauRuns,
			pct(c.AgreeRate), pct(c.ErrMedian), pct(c.ErrP95), pct(c.PlateauErrMedian), pct(c.PlateauErrP95),
			pct(c.ConfidentWrongRate), c.ConfidentWrong, c.Found,
			c.FalseFound, num(c.StartErrMedian, 2), num(c.StartAbsErrMedian, 2), c.Errors)
	}
	p("\nTPOT error is over the scored rows that report a window and a steady TPOT, plateau error over those whose truth plants a plateau; config labels abbreviate the swept parameters (%s; `\"\"` is an empty value).\n\n",
		abbrevList(r.Axes))
	r.writeHeadToHead(p)

	if r.PlotPath != "" {
		rel := r.PlotPath
		if r.ReportPath != "" {
			if x, err := filepath.Rel(filepath.Dir(r.ReportPath), r.PlotPath); err == nil {
				rel = filepath.ToSlash(x)
			}
		}
		p("## Error against each swept parameter\n\n![median and p95 TPOT error on plateau runs, found rate and confident-but-wrong rate per swept parameter](%s)\n\n", rel)
	}

	p("## Confusion matrices\n\nRows: truth (`expected_verdict.verdict`); columns: the row's status/verdict mapped to the same words.\n\n")
	shown := map[string]bool{}
	show := func(title, id string) {
		if shown[id] {
			return
		}
		shown[id] = true
		c := r.Config(id)
		p("### %s — %s\n\n", title, c.Label)
		r.writeConfusion(p, c)
	}
	show("Recommended", r.Recommended)
	for _, name := range presetOrder {
		if id, ok := r.Presets[name]; ok {
			show("Preset "+name, id)
		}
	}

	p("## Where the recommended config goes wrong\n\n")
	writeDisagreements(p, best)
	writeRowErrors(p, "Confident-but-wrong results", best.Wrong, best.ConfidentWrong)
	writeRowErrors(p, "Largest TPOT errors (found or not)", best.Worst, best.ErrN)

	if len(r.ErrorRuns) > 0 {
		p("## Runs with error rows\n\n| run | configs | reason |\n|---|---:|---|\n")
		for i, e := range r.ErrorRuns {
			if i == MaxListed {
				p("| … %d more | | |\n", len(r.ErrorRuns)-MaxListed)
				break
			}
			p("| `%s` | %d | %s |\n", e.RunPath, e.Configs, mdEscape(e.Reason))
		}
		p("\n")
	}
	if len(r.NoTruthRuns)+len(r.BadTruth) > 0 {
		p("## Runs skipped\n\n")
		for i, path := range r.NoTruthRuns {
			if i == MaxListed {
				p("- … %d more\n", len(r.NoTruthRuns)-MaxListed)
				break
			}
			p("- `%s`: no truth.json\n", path)
		}
		for _, path := range slices.Sorted(maps.Keys(r.BadTruth)) {
			p("- `%s`: %s\n", path, mdEscape(r.BadTruth[path]))
		}
		p("\n")
	}
	pr.add(r.WriteStops(w, true))
	p("%s", definitions)
	return pr.err()
}

// writeConfusion writes c's confusion matrix, only the labels that occur.
func (r *Report) writeConfusion(p func(string, ...any), c *ConfigScore) {
	var rows, cols []int
	for i := range TruthLabels {
		for j := range PredLabels {
			if c.Confusion[i][j] > 0 {
				rows = appendOnce(rows, i)
				cols = appendOnce(cols, j)
			}
		}
	}
	if len(rows) == 0 {
		p("No scored rows.\n\n")
		return
	}
	slices.Sort(rows)
	slices.Sort(cols)
	p("| truth \\ row |")
	for _, j := range cols {
		p(" %s |", PredLabels[j])
	}
	p("\n|---|")
	for range cols {
		p("---:|")
	}
	p("\n")
	for _, i := range rows {
		p("| %s |", TruthLabels[i])
		for _, j := range cols {
			n := c.Confusion[i][j]
			if i < len(TruthLabels) && TruthLabels[i] == PredLabels[j] {
				p(" **%d** |", n)
			} else {
				p(" %d |", n)
			}
		}
		p("\n")
	}
	p("\nAgreement %s (%d of %d scored rows)", pct(c.AgreeRate), c.Agree, c.Scored)
	if c.Other > 0 {
		p("; %d rows with a verdict outside the vocabulary", c.Other)
	}
	p(".\n\n")
}

// writeDisagreements lists c's disagreements and confident-but-wrong
// results by preset, most frequent first.
func writeDisagreements(p func(string, ...any), c *ConfigScore) {
	type kv struct {
		d Disagreement
		n int
	}
	var ds []kv
	for d, n := range c.Disagreements {
		ds = append(ds, kv{d, n})
	}
	slices.SortFunc(ds, func(a, b kv) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.d.Preset+a.d.Truth+a.d.Label, b.d.Preset+b.d.Truth+b.d.Label)
	})
	p("### Disagreements with truth, by preset\n\n")
	if len(ds) == 0 {
		p("None.\n\n")
	} else {
		p("| preset | truth | row | runs |\n|---|---|---|---:|\n")
		for _, e := range ds {
			p("| %s | %s | %s | %d |\n", e.d.Preset, e.d.Truth, e.d.Label, e.n)
		}
		p("\n")
	}
	if len(c.WrongByPreset) > 0 {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(c.WrongByPreset)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, c.WrongByPreset[k]))
		}
		p("Confident-but-wrong results by preset: %s.\n\n", strings.Join(parts, ", "))
	}
}

// writeRowErrors lists rows (of total) as a table.
func writeRowErrors(p func(string, ...any), title string, rows []RowError, total int) {
	p("### %s\n\n", title)
	if len(rows) == 0 {
		p("None.\n\n")
		return
	}
	p("| run | preset | truth | row | found | window | planted TPOT | steady TPOT p50 | error |\n")
	p("|---|---|---|---|---|---|---:|---:|---:|\n")
	for _, e := range rows {
		win := "—"
		if e.WindowStart >= 0 {
			win = fmt.Sprintf("%d–%d", e.WindowStart, e.WindowEnd)
		}
		p("| `%s` | %s | %s | %s | %t | %s | %s ms | %s ms | %s |\n", filepath.Base(e.RunPath), e.Preset, e.Truth, e.Label,
			e.Found, win, num(e.PlantedNs/1e6, 3), num(e.TPOTNs/1e6, 3), errPct(e.Err))
	}
	if total > len(rows) {
		p("\n%d of %d shown.\n", len(rows), total)
	}
	p("\n")
}

// shown renders a parameter value, an empty one as "".
func shown(v string) string {
	if v == "" {
		return `""`
	}
	return v
}

func appendOnce(xs []int, x int) []int {
	for _, v := range xs {
		if v == x {
			return xs
		}
	}
	return append(xs, x)
}

func abbrevList(axes []string) string {
	var out []string
	for _, a := range axes {
		if a != "compat" && a != "method" {
			out = append(out, "`"+sinks.Abbrev(a)+"` "+a)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// mdEscape keeps a free-text reason inside one table cell.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// definitions closes the report: how each figure is computed.
const definitions = `## Definitions

- **Labels.** A row's status/verdict is mapped to truth's words: status ` + "`partial_dataset`, `insufficient_passes`, `not_supported`" + ` keep their name;
  ` + "`insufficient_duration`" + ` is **short** (a plateau shorter than the min-duration floor); otherwise the verdict ` + "`STEADY STATE`" + ` is
  **steady**, ` + "`not found`" + ` is **not_found**, ` + "`anomaly`/`drifting_up`/`drifting_down`" + ` keep their name (status "" is the reference
  compat mode). Status ` + "`error`" + ` rows are counted and listed, never scored. **Agreement**: equal labels, or — under the
  min-duration gate, when truth's plateau fails only the gate (` + "`found_no_min_duration` and not `found`" + `) — short or not_found for
  a steady/anomaly truth.
- **Found rate**: found rows among the runs truth says must be found under the config's gate: ` + "`expected_verdict.found`" + ` with
  min_duration on, ` + "`found_no_min_duration`" + ` with it off. **Plateau found**: the same over ` + "`found_no_min_duration`" + ` for every config.
- **TPOT error**: |steady_tpot_p50 − planted| / planted over rows reporting a window and a steady TPOT. Planted is the median planted
  level (` + "`planted.tpot_level_ms_per_sp`" + `) of the truth super-passes the window covers, only the flat ones (` + "`planted.flat_sps`" + `)
  when it covers any. Quantiles interpolate linearly (NumPy's default). **Plateau err**: the same over the runs whose truth plants a
  plateau (` + "`found_no_min_duration`" + `) — the accuracy of the value where there is one; the plot shows it.
- **Confident-but-wrong**: found rows with a TPOT error above 5 %, or found where truth has no steady state (**false found**: truth
  not_found, drifting, insufficient_passes or partial_dataset); the rate is over found rows.
- **Start error**: window start − ⌈planted warmup end⌉ in truth super-passes over found rows with a planted plateau; signed median
  and median of absolute values.
- **Ranking**: lexicographic — confident-but-wrong rate ascending (in 1-point steps), found rate descending, median TPOT error
  ascending, agreement descending, fewer parameters changed from the compat's defaults, config_id; an undefined figure ranks after
  every defined one.
`
