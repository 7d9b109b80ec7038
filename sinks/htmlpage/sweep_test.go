package htmlpage_test

import (
	"bytes"
	"context"
	"errors"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
	"github.com/steadysweep/steadysweep/sweep"
)

// sweepParity sweeps the named parity runs under the default config into
// a temporary output directory and reads it back.
func sweepParity(t *testing.T, names ...string) *htmlpage.Sweep {
	t.Helper()
	var paths []string
	for _, n := range names {
		paths = append(paths, parityRun(t, n))
	}
	return sweepDirs(t, paths)
}

// sweepDirs sweeps the runs at paths under the default config into a
// temporary output directory and reads it back.
func sweepDirs(t *testing.T, paths []string) *htmlpage.Sweep {
	t.Helper()
	refs, errs := corpora.Discover(paths, nil, nil)
	if len(errs) > 0 || len(refs) != len(paths) {
		t.Fatalf("discover: %d runs, %v", len(refs), errs)
	}
	out := t.TempDir()
	_, err := sweep.Run(context.Background(), sweep.Options{Runs: refs, Configs: []core.Params{core.DefaultParams()}, Out: out,
		Load: sweep.DefaultLoader(sweep.LoaderOptions{Counter: tokenizer.Words{}}), Analyze: sweep.DefaultAnalyzer, Series: sweep.DefaultSeries})
	if err != nil {
		t.Fatal(err)
	}
	s, err := htmlpage.ReadSweep(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func renderSweep(t *testing.T, s *htmlpage.Sweep) string {
	t.Helper()
	var b bytes.Buffer
	if err := htmlpage.WriteSweep(&b, s, htmlpage.SweepOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// modelOf reads the model name of a parity run's config.yaml
// (model_params.name), independently of the readers.
func modelOf(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(parityRun(t, name), "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s+name: (\S+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no model name in config.yaml", name)
	}
	return strings.Trim(string(m[1]), `'"`)
}

// TestSweepPageColumns: the sweep page reads the typed rows. It filters
// by status and verdict, and by the identity columns issue 19 adds
// (model, config_label, preset) with each row's value — the model checked
// against the run's config.yaml; and rows from an older part file without
// those columns (sinkstest.Downgrade to schema 2) are all shown, with no
// filter for the missing column and the config named from the rows'
// parameters.
func TestSweepPageColumns(t *testing.T) {
	names := []string{"conc_clean_ramp", "conc_long_ramp", "conc_drift_up"}
	s := sweepParity(t, names...)

	// conc_long_ramp's model is DeepSeek-R1, the others gpt-oss-120b
	// (shared/parity/README.md).
	models := map[string]string{}
	for _, n := range names {
		models[n] = modelOf(t, n)
	}
	if models["conc_long_ramp"] == models["conc_clean_ramp"] {
		t.Fatalf("models %v: the parity runs should differ", models)
	}
	page := renderSweep(t, s)
	for _, f := range []string{"status", "verdict", "model"} {
		if !strings.Contains(page, `<select data-filter="`+f+`">`) {
			t.Errorf("no %s filter on the page", f)
		}
	}
	for _, r := range s.Rows {
		tr := html.UnescapeString(regexp.MustCompile(`<tr data-key="` + r.RunID + `\|[^"]*"[^>]*>`).FindString(page))
		if !strings.Contains(tr, `data-model="`+models[r.RunRel]+`"`) {
			t.Errorf("%s: row %q lacks its model %s", r.RunRel, tr, models[r.RunRel])
		}
		if label := r.ConfigLabel; label == "" || !strings.Contains(tr, `data-config="`+label+`"`) {
			t.Errorf("%s: row %q lacks its config_label %q", r.RunRel, tr, label)
		}
	}

	// An older part file, written before the identity columns (schema 2):
	// every row is shown, with no model filter and the config named from
	// the rows' parameters.
	sinkstest.Downgrade(t, filepath.Join(s.Out, "rows"), 2)
	old, err := htmlpage.ReadSweep(context.Background(), s.Out)
	if err != nil {
		t.Fatal(err)
	}
	page = renderSweep(t, old)
	if got := strings.Count(page, "<tr data-key="); got != len(old.Rows) || got != len(s.Rows) {
		t.Errorf("%d rows shown of %d (%d before the downgrade)", got, len(old.Rows), len(s.Rows))
	}
	if strings.Contains(page, `<select data-filter="model">`) {
		t.Error("a model filter without a model column")
	}
	if !strings.Contains(page, `data-config="steadysweep"`) {
		t.Error("rows without config_label are not named by their compat")
	}
}

// TestSweepPageUncertifiedWindow: a row's window is marked "not certified"
// exactly when the row's found flag is false (the detector's best effort,
// which the text report prints with the same caveat), so a steady value
// beside a "not found" verdict is never read as a certified one.
func TestSweepPageUncertifiedWindow(t *testing.T) {
	s := sweepParity(t, "conc_clean_ramp", "conc_drift_up", "conc_staircase_late", "offline_burst", "conc_ramp_only")
	page := renderSweep(t, s)
	marked := map[bool]int{}
	for _, r := range s.Rows {
		if r.Outcome.WindowStartSP < 0 {
			continue
		}
		found := r.Outcome.Found
		tr := regexp.MustCompile(`(?s)<tr data-key="` + r.RunID + `\|.*?</tr>`).FindString(page)
		if got := strings.Contains(tr, "not certified"); got == found {
			t.Errorf("%s: found %v, window marked not certified %v", r.RunRel, found, got)
		}
		marked[found]++
	}
	if marked[true] == 0 || marked[false] == 0 {
		t.Errorf("rows with a window: %d certified, %d not; the runs should give both", marked[true], marked[false])
	}
}

// TestSweepPageMissingSeriesCause: a row without a series says why. In a
// sweep whose loader fails for one run (as a sweep without a tokenizer
// fails for every run), that row is an error row, and the page names the
// failure, not an unknown dataset size (issue 26: "18 rows have no series
// (their run's dataset size was unknown)" for a tokenizer-less sweep). The
// other run, its dataset size known (run_meta.json), has its sparkline.
func TestSweepPageMissingSeriesCause(t *testing.T) {
	paths := []string{parityRun(t, "conc_clean_ramp"), parityRun(t, "conc_drift_up")}
	refs, errs := corpora.Discover(paths, nil, nil)
	if len(errs) > 0 || len(refs) != 2 {
		t.Fatalf("discover: %d runs, %v", len(refs), errs)
	}
	load := sweep.DefaultLoader(sweep.LoaderOptions{Counter: tokenizer.Words{}})
	failing := func(ctx context.Context, ref corpora.RunRef) (*sweep.LoadedRun, error) {
		if strings.Contains(ref.Path, "conc_drift_up") {
			return nil, errors.New(`tokenizer: could not resolve a tokenizer for model "x"`)
		}
		return load(ctx, ref)
	}
	out := t.TempDir()
	if _, err := sweep.Run(context.Background(), sweep.Options{Runs: refs, Configs: []core.Params{core.DefaultParams()}, Out: out,
		Load: failing, Analyze: sweep.DefaultAnalyzer, Series: sweep.DefaultSeries}); err != nil {
		t.Fatal(err)
	}
	s, err := htmlpage.ReadSweep(context.Background(), out)
	if err != nil {
		t.Fatal(err)
	}
	page := renderSweep(t, s)
	errorsN := 0
	for _, r := range s.Rows {
		if r.Outcome.Status == core.StatusError {
			errorsN++
		}
	}
	notes := regexp.MustCompile(`<p class="note missing-series">([^<]*)</p>`).FindAllStringSubmatch(page, -1)
	if errorsN != 1 || len(notes) != 1 || !strings.HasPrefix(notes[0][1], "1 row without a series: the run failed (status error)") {
		t.Errorf("%d error rows; missing-series notes %q, want one naming the failure", errorsN, notes)
	}
	if strings.Contains(page, "dataset size was unknown") {
		t.Error("the page blames an unknown dataset size")
	}
	if n := strings.Count(page, `<svg class="spark"`); n != 1 {
		t.Errorf("%d sparklines, want 1 (the run that loaded)", n)
	}
}
