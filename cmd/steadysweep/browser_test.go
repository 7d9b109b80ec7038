package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// chromium is the headless browser the page check drives: $STEADYSWEEP_CHROMIUM,
// else the first of Debian's and Google's names on $PATH; "" when none.
func chromium() string {
	if p := os.Getenv("STEADYSWEEP_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browse opens page in a fresh headless Chromium with networking off (no
// background or component traffic, every host unresolvable, a dead proxy)
// and returns what mode (--dump-dom, or --screenshot=…) writes to stdout
// and the browser's console messages (its CONSOLE log lines).
func browse(t *testing.T, bin, page string, mode ...string) (out []byte, console []string) {
	t.Helper()
	abs, err := filepath.Abs(page)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--hide-scrollbars"}
	args = append(append(args, mode...), "file://"+filepath.ToSlash(abs))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), filepath.Base(page), err, stderr.String())
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return stdout.Bytes(), console
}

// loadPage checks that page renders in the browser: its script ran to the
// end (data-ready on <html>) and the console stayed silent (the pages log
// nothing, so any message — an exception, a blocked fetch — is a fault).
// It returns the DOM after the script ran.
func loadPage(t *testing.T, bin, page string) string {
	t.Helper()
	dom, console := browse(t, bin, page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("%s: console messages:\n%s", filepath.Base(page), strings.Join(console, "\n"))
	}
	if !regexp.MustCompile(`<html[^>]* data-ready="1"`).Match(dom) {
		t.Errorf("%s: the page's script did not run to the end", filepath.Base(page))
	}
	return string(dom)
}

// probe loads page with script appended after the page's own (inline, as
// the pages' Content-Security-Policy allows) and returns what the script
// stored as JSON in <html data-probe>: the page's behaviour driven as a
// reader would (a filter chosen, a header clicked, a super-pass hovered).
func probe(t *testing.T, bin, page, script string) map[string]any {
	t.Helper()
	src := mustRead(t, page)
	i := bytes.LastIndex(src, []byte("</body>"))
	if i < 0 {
		t.Fatalf("%s: no </body>", filepath.Base(page))
	}
	probed := filepath.Join(t.TempDir(), filepath.Base(page))
	withScript := append(append(append([]byte{}, src[:i]...), "<script>"+script+"</script>"...), src[i:]...)
	if err := os.WriteFile(probed, withScript, 0o644); err != nil {
		t.Fatal(err)
	}
	dom := loadPage(t, bin, probed)
	m := regexp.MustCompile(`<html[^>]* data-probe="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("%s: the probe stored nothing", filepath.Base(page))
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &out); err != nil {
		t.Fatalf("%s: probe result %q: %v", filepath.Base(page), m[1], err)
	}
	return out
}

// probeAt is probe with page shown in a frame width CSS pixels wide (a
// headless window is at least 500 wide; a frame can be a phone's 390):
// the probe posts its result to the frame's parent, which stores it.
func probeAt(t *testing.T, bin, page, script string, width int) map[string]any {
	t.Helper()
	src := mustRead(t, page)
	i := bytes.LastIndex(src, []byte("</body>"))
	if i < 0 {
		t.Fatalf("%s: no </body>", filepath.Base(page))
	}
	dir := t.TempDir()
	probed := filepath.Join(dir, filepath.Base(page))
	post := `<script>window.parent.postMessage(document.documentElement.getAttribute("data-probe"), "*");</script>`
	withScript := append(append(append([]byte{}, src[:i]...), "<script>"+script+"</script>"+post...), src[i:]...)
	if err := os.WriteFile(probed, withScript, 0o644); err != nil {
		t.Fatal(err)
	}
	frame := filepath.Join(dir, "frame.html")
	wrapper := fmt.Sprintf(`<!DOCTYPE html><html><body style="margin:0"><iframe src="%s" width="%d" height="900" style="border:0"></iframe>`+
		`<script>window.addEventListener("message", function (e) { var h = document.documentElement; h.setAttribute("data-probe", e.data); h.setAttribute("data-ready", "1"); });</script></body></html>`,
		html.EscapeString(filepath.Base(probed)), width)
	if err := os.WriteFile(frame, []byte(wrapper), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, console := browse(t, bin, frame, "--window-size=1800,1000", "--dump-dom")
	if len(console) > 0 {
		t.Errorf("%s at %d px: console messages:\n%s", filepath.Base(page), width, strings.Join(console, "\n"))
	}
	m := regexp.MustCompile(`<html[^>]* data-probe="([^"]*)"`).FindSubmatch(dom)
	if m == nil {
		t.Fatalf("%s at %d px: the probe stored nothing", filepath.Base(page), width)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &out); err != nil {
		t.Fatalf("%s at %d px: probe result %q: %v", filepath.Base(page), width, m[1], err)
	}
	return out
}

// widthProbe measures the sweep table's header cells in the window: for
// each, whether it is wholly visible as the page opens ("shown": inside
// the window and inside the table's container), and whether scrolling
// the table's container alone brings it wholly into view with the run
// column's header still visible left of it ("reached"). "page" is the
// page's own width, "vw" the window's.
const widthProbe = `(function () {
  var doc = document, wrap = doc.getElementById("table-runs");
  var ths = Array.prototype.slice.call(wrap.querySelectorAll("thead th"));
  var out = {vw: window.innerWidth, page: doc.documentElement.scrollWidth, heads: []};
  function box() {
    var w = wrap.getBoundingClientRect();
    return {left: Math.max(0, w.left), right: Math.min(window.innerWidth, w.right)};
  }
  function inside(r, b) { return r.left >= b.left - 0.5 && r.right <= b.right + 0.5; }
  ths.forEach(function (th) {
    out.heads.push({text: th.textContent.trim(), shown: inside(th.getBoundingClientRect(), box())});
  });
  ths.forEach(function (th, i) {
    wrap.scrollLeft = 0;
    var r = th.getBoundingClientRect(), b = box();
    if (r.right > b.right) { wrap.scrollLeft = r.right - b.right; }
    r = th.getBoundingClientRect();
    var run = ths[0].getBoundingClientRect();
    out.heads[i].reached = inside(r, box()) && inside(run, box()) && (i === 0 || run.right <= r.left + 0.5);
  });
  wrap.scrollLeft = 0;
  doc.documentElement.setAttribute("data-probe", JSON.stringify(out));
})();`

// sweepProbe chooses status=windowable in the sweep page's filter and
// counts the rows left shown, clears it, then clicks the "TPOT p50"
// header and lists the column's sort keys in the order shown.
const sweepProbe = `(function () {
  var out = {}, doc = document;
  var sel = doc.querySelector('select[data-filter="status"]');
  sel.value = "windowable"; sel.dispatchEvent(new Event("change"));
  out.shown = 0;
  doc.querySelectorAll("table.filterable tbody tr").forEach(function (r) { if (!r.hidden) { out.shown++; } });
  out.counter = doc.getElementById("shown").textContent;
  sel.value = ""; sel.dispatchEvent(new Event("change"));
  var ths = doc.querySelectorAll("table.sortable thead th"), col = -1;
  ths.forEach(function (th, i) { if (th.textContent.trim() === "TPOT p50") { col = i; } });
  ths[col].click();
  out.order = Array.prototype.map.call(doc.querySelectorAll("table.sortable tbody tr"), function (r) {
    return r.cells[col].getAttribute("data-v") || "";
  });
  doc.documentElement.setAttribute("data-probe", JSON.stringify(out));
})();`

// runProbe hovers super-pass 3 of the TPOT chart and reports the tooltip
// and how many points are highlighted across the page's charts.
const runProbe = `(function () {
  var doc = document, out = {};
  var hit = doc.querySelector('#chart-tpot .hit[data-sp="3"]');
  hit.dispatchEvent(new MouseEvent("mousemove", {clientX: 200, clientY: 200, bubbles: true}));
  var tip = doc.getElementById("tip");
  out.tip = tip.hidden ? "" : tip.textContent;
  out.on = doc.querySelectorAll(".pt.on").length;
  out.onSP = doc.querySelectorAll('.pt.on[data-sp="3"]').length;
  hit.dispatchEvent(new MouseEvent("mouseleave"));
  out.after = doc.querySelectorAll(".pt.on").length;
  doc.documentElement.setAttribute("data-probe", JSON.stringify(out));
})();`

// checkRunCharts: in the rendered DOM each chart has one hover target per
// super-pass of the page's record and one point per super-pass with a
// value, per series.
func checkRunCharts(t *testing.T, page, dom string) {
	t.Helper()
	rec := pageRecord(t, page)
	sps, _ := recordField(rec, "super_passes").([]any)
	for _, ch := range []struct{ id, class, key string }{
		{"tpot", "s1", "tpot_p50"}, {"tpot", "s2", "tpot_p90"}, {"ttft", "s3", "ttft_p50"}, {"ttft", "s4", "ttft_p90"},
		{"latency", "s5", "latency_p99"},
	} {
		fig := regexp.MustCompile(`(?s)<figure class="chart" id="chart-` + ch.id + `".*?</figure>`).FindString(dom)
		if fig == "" {
			if ch.id != "latency" {
				t.Errorf("%s: no %s chart in the DOM", filepath.Base(page), ch.id)
			}
			continue
		}
		want := 0
		for _, sp := range sps {
			if recordField(sp.(pyjson.Object), ch.key) != nil {
				want++
			}
		}
		if want == 0 {
			if !strings.Contains(fig, `class="empty"`) {
				t.Errorf("%s: %s has no values but the chart is not marked empty", filepath.Base(page), ch.key)
			}
			continue
		}
		if got := strings.Count(fig, `<rect class="hit"`); got != len(sps) {
			t.Errorf("%s: %s chart has %d hover targets, the run %d super-passes", filepath.Base(page), ch.id, got, len(sps))
		}
		if got := strings.Count(fig, `<circle class="pt `+ch.class+`"`); got != want {
			t.Errorf("%s: %s has %d points, %d super-passes with a value", filepath.Base(page), ch.key, got, want)
		}
	}
}

// TestPagesInBrowser loads every kind of page in headless Chromium with
// networking off: a run page per page run (analyze --html), a sweep page
// with its run pages (sweep --run-pages --html), and a calibration page
// (calibrate --html over a synthetic corpus). With $STEADYSWEEP_SCREENSHOTS
// set to a directory it also writes the README's screenshots there
// (run-page.png, sweep-page.png, run-page-phone.png). make html-check
// installs Debian's chromium and runs it.
func TestPagesInBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" && os.Getenv("STEADYSWEEP_REQUIRE_BROWSER") != "" {
		t.Fatal("no Chromium on $PATH (or $STEADYSWEEP_CHROMIUM), and STEADYSWEEP_REQUIRE_BROWSER is set (make html-check): install Debian's chromium")
	}
	if bin == "" {
		t.Skip("no Chromium on $PATH (or $STEADYSWEEP_CHROMIUM): the browser check of the HTML pages is skipped; `make html-check` installs Debian's chromium and runs it")
	}
	dirs := pageRuns(t)
	tmp := t.TempDir()
	var runPages []string
	for _, dir := range dirs {
		page := filepath.Join(tmp, filepath.Base(dir)+".html")
		mustAnalyze(t, dir, "--html", page)
		runPages = append(runPages, page)
	}
	for _, page := range runPages {
		t.Run(filepath.Base(page), func(t *testing.T) { checkRunCharts(t, page, loadPage(t, bin, page)) })
	}
	t.Run("hovering a super-pass", func(t *testing.T) {
		page := runPages[0] // conc_clean_ramp: TPOT and TTFT for every super-pass
		got := probe(t, bin, page, runProbe)
		sp := recordField(pageRecord(t, page), "super_passes").([]any)[3].(pyjson.Object)
		tpot, _ := strconv.ParseFloat(fmt.Sprint(recordField(sp, "tpot_p50")), 64)
		want := fmt.Sprintf("TPOT p50 %.2f ms", tpot/1e6)
		tip, _ := got["tip"].(string)
		if !strings.HasPrefix(tip, "super-pass 3") || !strings.Contains(tip, want) {
			t.Errorf("tooltip %q, want super-pass 3 with %q", tip, want)
		}
		// Four series over two charts (TPOT and TTFT, p50 and p90), each
		// with a point at super-pass 3; unhighlighted when the pointer leaves.
		if got["on"] != float64(4) || got["onSP"] != float64(4) || got["after"] != float64(0) {
			t.Errorf("highlighted points %v (at super-pass 3: %v), after leaving %v; want 4, 4, 0", got["on"], got["onSP"], got["after"])
		}
	})
	t.Run("printing", func(t *testing.T) {
		// printed is the number of pages page prints on.
		printed := func(page string) int {
			pdf := filepath.Join(t.TempDir(), "run.pdf")
			if _, console := browse(t, bin, page, "--no-pdf-header-footer", "--print-to-pdf="+pdf); len(console) > 0 {
				t.Errorf("console messages while printing: %v", console)
			}
			return len(regexp.MustCompile(`/Type\s*/Page[^s]`).FindAll(mustRead(t, pdf), -1))
		}
		// Printing opens every collapsed section (the beforeprint hook):
		// more pages than the same page without the hook.
		collapsed := filepath.Join(t.TempDir(), "collapsed.html")
		src := mustRead(t, runPages[1])
		if err := os.WriteFile(collapsed, bytes.Replace(src, []byte(`"beforeprint"`), []byte(`"no-beforeprint"`), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		full, folded := printed(runPages[1]), printed(collapsed)
		if full <= folded || full > 40 {
			t.Errorf("the run page prints on %d pages, %d with its sections collapsed", full, folded)
		}
		t.Logf("the staircase run page prints on %d pages (%d with its sections collapsed)", full, folded)
	})
	// The check itself: a page that tries to load anything from outside
	// is stopped by the pages' Content-Security-Policy, and the browser
	// says so on the console, which loadPage counts as a fault.
	t.Run("an external load is refused and reported", func(t *testing.T) {
		page := mustRead(t, runPages[0])
		bad := filepath.Join(tmp, "external.html")
		tainted := bytes.Replace(page, []byte("<body>"), []byte(`<body><img src="http://example.com/x.png">`), 1)
		if err := os.WriteFile(bad, tainted, 0o644); err != nil {
			t.Fatal(err)
		}
		_, console := browse(t, bin, bad, "--dump-dom")
		if !strings.Contains(strings.Join(console, "\n"), "Content Security Policy") {
			t.Errorf("an external image raised no Content-Security-Policy message on the console: %q", console)
		}
	})

	out := filepath.Join(tmp, "sweep")
	sweepPage := filepath.Join(out, "sweep.html")
	args := append(append([]string{"sweep"}, dirs...), "-o", out, "--preset", "default,reference", "--set", "warmup_band=0.03,0.1",
		"--tokenizer", "words", "--no-cache", "-q", "--run-pages", "--html", sweepPage)
	mustRun(t, args...)
	t.Run("sweep.html", func(t *testing.T) {
		dom := loadPage(t, bin, sweepPage)
		rows, _ := recordField(pageRecord(t, sweepPage), "rows").([]any)
		if got := strings.Count(dom, "<tr data-key="); got != len(rows) {
			t.Errorf("the sweep page shows %d rows, its record has %d", got, len(rows))
		}
		if got := strings.Count(dom, `<svg class="spark"`); got != len(rows) {
			t.Errorf("%d sparklines for %d rows", got, len(rows))
		}
		pages, _ := filepath.Glob(filepath.Join(out, "pages", "*.html"))
		if len(pages) != len(rows) {
			t.Fatalf("%d run pages for %d rows", len(pages), len(rows))
		}
		checkRunCharts(t, pages[0], loadPage(t, bin, pages[0]))

		// Filter and sort as a reader would.
		got := probe(t, bin, sweepPage, sweepProbe)
		windowable := 0
		var keys []float64
		for _, r := range rows {
			o := r.(pyjson.Object)
			if recordField(o, "status") == "windowable" {
				windowable++
			}
			if v, err := strconv.ParseFloat(fmt.Sprint(recordField(o, "steady_tpot_p50_ns")), 64); err == nil {
				keys = append(keys, v)
			}
		}
		if got["shown"] != float64(windowable) || got["counter"] != strconv.Itoa(windowable) {
			t.Errorf("status=windowable shows %v rows (counter %v), the record has %d", got["shown"], got["counter"], windowable)
		}
		order, _ := got["order"].([]any)
		var shown []float64
		for _, o := range order {
			if v, err := strconv.ParseFloat(o.(string), 64); err == nil {
				shown = append(shown, v)
			}
		}
		sort.Float64s(keys)
		if len(order) != len(rows) || !slices.Equal(shown, keys) || len(keys) == 0 {
			t.Errorf("TPOT p50 sorted: %v; want every row, the record's steady TPOT p50s ascending %v", order, keys)
		}
	})

	// The sweep table at a desktop window's width (1280, 1700 px) shows
	// every column without scrolling; on a phone (390 px) it scrolls in
	// its own container, which reaches every column with the run column
	// held in view. The page itself never scrolls sideways.
	t.Run("sweep.html widths", func(t *testing.T) {
		for _, width := range []int{1280, 1700, 390} {
			got := probeAt(t, bin, sweepPage, widthProbe, width)
			if got["vw"] != float64(width) {
				t.Fatalf("the frame is %v px wide, want %d", got["vw"], width)
			}
			if page, _ := got["page"].(float64); page > float64(width) {
				t.Errorf("at %d px the page is %v px wide: it scrolls sideways", width, page)
			}
			heads, _ := got["heads"].([]any)
			var names []string
			for _, h := range heads {
				o := h.(map[string]any)
				name := o["text"].(string)
				names = append(names, name)
				if width >= 1280 && o["shown"] != true {
					t.Errorf("at %d px the %q column is not wholly in view", width, name)
				}
				if o["reached"] != true {
					t.Errorf("at %d px scrolling the table does not bring the %q column into view beside the run column", width, name)
				}
			}
			// The columns the test's sweep has: a config column (two
			// presets × two warmup bands), a model, failures (conc_failures).
			for _, want := range []string{"run", "config", "model", "system TPS", "failed"} {
				if !slices.Contains(names, want) {
					t.Errorf("at %d px the sweep table has no %q column: %q", width, want, names)
				}
			}
		}
	})

	t.Run("calibration.html", func(t *testing.T) {
		root := filepath.Join(tmp, "synth")
		if _, err := synth.GenerateCorpus(root, 4, 1, []string{"clean_ramp", "drift_up", "late_staircase", "ramp_only"}); err != nil {
			t.Fatal(err)
		}
		cout := filepath.Join(tmp, "cal")
		mustRun(t, "sweep", root, "-o", cout, "--preset", "default,reference", "--set", "warmup_band=0.03,0.1",
			"--tokenizer", "words", "--no-cache", "-q")
		page := filepath.Join(cout, "calibration.html")
		mustRun(t, "calibrate", cout, "--html", page)
		dom := loadPage(t, bin, page)
		if n := strings.Count(dom, `<figure class="chart"`); n != 4 {
			t.Errorf("%d error plots, want 2 swept axes × 2 panels", n)
		}
	})

	if dir := os.Getenv("STEADYSWEEP_SCREENSHOTS"); dir != "" {
		shots := []struct{ page, name, size string }{
			{filepath.Join(tmp, "conc_staircase_late.html"), "run-page.png", "1280,1560"},
			{sweepPage, "sweep-page.png", "1280,900"},
			{filepath.Join(tmp, "conc_staircase_late.html"), "run-page-phone.png", "390,1400"},
		}
		for _, s := range shots {
			path, err := filepath.Abs(filepath.Join(dir, s.name))
			if err != nil {
				t.Fatal(err)
			}
			if _, console := browse(t, bin, s.page, "--window-size="+s.size, "--run-all-compositor-stages-before-draw", "--screenshot="+path); len(console) > 0 {
				t.Errorf("%s: console messages: %v", s.name, console)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(fmt.Sprintf("wrote %s (%d KB)", path, fi.Size()>>10))
		}
	}
}
