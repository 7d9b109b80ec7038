package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
)

// pythonCmd returns the interpreter for the reference and whether it can
// import yaml (the reference's only non-stdlib import on this path).
func pythonCmd() (string, string) {
	py := os.Getenv("STEADYSWEEP_PYTHON")
	if py == "" {
		py = "python3"
	}
	if _, err := exec.LookPath(py); err != nil {
		return "", py + " is not installed"
	}
	out, err := exec.Command(py, "-c", "import sys, yaml; print(sys.version.split()[0])").Output()
	if err != nil {
		return "", py + " cannot import yaml (PyYAML)"
	}
	return py, strings.TrimSpace(string(out))
}

// reference is the Python reference detector as this machine offers it:
// the interpreter (py), its version (info), the module's path, and why it
// cannot be run ("" when it can).
type reference struct{ py, info, path, why string }

// findReference looks the reference up from STEADYSWEEP_REFERENCE and
// STEADYSWEEP_PYTHON; every section that compares with it skips the
// comparison, saying why, when why is set.
func findReference() reference {
	r := reference{path: os.Getenv("STEADYSWEEP_REFERENCE")}
	if r.path == "" {
		r.why = "STEADYSWEEP_REFERENCE is not set"
		return r
	}
	if _, err := os.Stat(r.path); err != nil {
		r.why = fmt.Sprintf("STEADYSWEEP_REFERENCE=%s: %v", r.path, err)
		return r
	}
	if r.py, r.info = pythonCmd(); r.py == "" {
		r.why = r.info
	}
	return r
}

// children runs the command made by mk n times and returns the runs.
func children(e *env, n int, what string, mk func() *exec.Cmd) ([]bench.Child, error) {
	var out []bench.Child
	for i := range n {
		e.logf("%s (%d/%d)", what, i+1, n)
		c, err := bench.RunChild(mk())
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func walls(cs []bench.Child) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = c.Wall
	}
	return out
}

func cpus(cs []bench.Child) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = c.CPU
	}
	return out
}

func rsss(cs []bench.Child) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = float64(c.MaxRSS)
	}
	return out
}

// analyzeCmd is `steadysweep analyze` with the word counter and no column
// cache (the reference has none), writing its JSON to jsonOut.
func analyzeCmd(e *env, dir, jsonOut string, extra ...string) *exec.Cmd {
	args := append([]string{"analyze", dir, "--tokenizer", "words", "--no-cache", "--json", jsonOut}, extra...)
	return exec.CommandContext(e.ctx, e.bin, args...)
}

// referenceCmd is the reference on dir — bench/scripts/reference_shim.py
// run by py with STEADYSWEEP_REFERENCE=refPath — writing its JSON to
// jsonOut.
func referenceCmd(e *env, py, refPath, dir, jsonOut string) *exec.Cmd {
	shim := filepath.Join("bench", "scripts", "reference_shim.py")
	if abs, err := filepath.Abs(shim); err == nil {
		shim = abs
	}
	cmd := exec.CommandContext(e.ctx, py, shim, dir, "--json", jsonOut)
	cmd.Env = append(os.Environ(), "STEADYSWEEP_REFERENCE="+refPath)
	return cmd
}

// sameSteadyState compares the steady_state blocks of two reference-shaped
// JSON files.
func sameSteadyState(a, b string) (bool, string, error) {
	var ja, jb struct {
		NSuperPasses int            `json:"n_super_passes"`
		Warmup       int            `json:"warmup"`
		Steady       map[string]any `json:"steady_state"`
	}
	for _, p := range []struct {
		path string
		dst  any
	}{{a, &ja}, {b, &jb}} {
		data, err := os.ReadFile(p.path)
		if err != nil {
			return false, "", err
		}
		if err := json.Unmarshal(data, p.dst); err != nil {
			return false, "", fmt.Errorf("%s: %w", p.path, err)
		}
	}
	desc := fmt.Sprintf("%d super-passes, warmup %d, found=%v, window %v", ja.NSuperPasses, ja.Warmup, ja.Steady["found"], ja.Steady["window"])
	same := ja.NSuperPasses == jb.NSuperPasses && ja.Warmup == jb.Warmup &&
		reflect.DeepEqual(ja.Steady["found"], jb.Steady["found"]) && reflect.DeepEqual(ja.Steady["window"], jb.Steady["window"])
	return same, desc, nil
}

func analyzeSection(e *env) (string, error) {
	if err := ensureBig(e); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## 3. End to end: `steadysweep analyze` vs the reference\n\n")
	dir := e.bigDir
	reps := e.reps
	out := filepath.Join(e.work, "analyze")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	ourJSON := filepath.Join(out, "ours.json")
	compatJSON := filepath.Join(out, "ours-compat.json")
	refJSON := filepath.Join(out, "reference.json")

	ours, err := children(e, reps, "analyze: ours", func() *exec.Cmd { return analyzeCmd(e, dir, ourJSON) })
	if err != nil {
		return "", err
	}
	compat, err := children(e, reps, "analyze: ours --compat reference", func() *exec.Cmd {
		return analyzeCmd(e, dir, compatJSON, "--compat", "reference")
	})
	if err != nil {
		return "", err
	}

	e.bigOurs, e.bigNSP = ours, nSuperPasses(ourJSON)
	// With a warm column cache: one untimed run fills it.
	cacheDir := filepath.Join(out, "cache")
	warmCmd := func() *exec.Cmd {
		return exec.CommandContext(e.ctx, e.bin, "analyze", dir, "--tokenizer", "words", "--cache-dir", cacheDir, "--json", ourJSON)
	}
	if _, err := bench.RunChild(warmCmd()); err != nil {
		return "", err
	}
	warm, err := children(e, reps, "analyze: ours, warm column cache", warmCmd)
	if err != nil {
		return "", err
	}
	rf := findReference()
	py, refPath, pyInfo, why := rf.py, rf.path, rf.info, rf.why
	var ref []bench.Child
	if why == "" {
		ref, err = children(e, reps, "analyze: reference", func() *exec.Cmd { return referenceCmd(e, py, refPath, dir, refJSON) })
		if err != nil {
			return "", err
		}
		e.bigRef = ref
	}

	fmt.Fprintf(&b, "The %s log of section 1 with its sidecars (dataset size %d from run_meta.json), tokens counted as "+
		"whitespace words on both sides. Each command is a fresh process: wall clock, user+system CPU "+
		"from `wait4`, peak RSS from %s; stdout is discarded and both write their JSON result to a file.\n\n",
		fmtMB(e.bigSize), bench.LogSpec().DatasetSize, bench.RSSMethod())
	fmt.Fprintf(&b, "```sh\n%s analyze RUN --tokenizer words --no-cache --json ours.json\n", filepath.Base(e.bin))
	fmt.Fprintf(&b, "%s analyze RUN --tokenizer words --no-cache --json ours.json --compat reference\n", filepath.Base(e.bin))
	fmt.Fprintf(&b, "%s analyze RUN --tokenizer words --cache-dir CACHE --json ours.json   # after one untimed run filled CACHE\n", filepath.Base(e.bin))
	fmt.Fprintf(&b, "STEADYSWEEP_REFERENCE=.../steady_state_diagnostics.py python3 bench/scripts/reference_shim.py RUN --json reference.json\n```\n\n")
	fmt.Fprintf(&b, "`reference_shim.py` (ours) loads the reference module from its path and calls its `run()` with the CLI's "+
		"effective defaults (window sizes 4,6,8, auto warmup, the profile's CoV bounds and flush size) and "+
		"`count_tokens = lambda texts: [len(t.split()) for t in texts]`, as shared/parity/README.md describes.\n\n")
	fmt.Fprintf(&b, "| command | reps | wall | CPU | peak RSS | MB/s (wall) |\n|---|---:|---:|---:|---:|---:|\n")
	row := func(name string, cs []bench.Child) {
		mb := make([]float64, len(cs))
		for i, c := range cs {
			mb[i] = float64(e.bigSize) / 1e6 / c.Wall
		}
		fmt.Fprintf(&b, "| %s | %d | %s s | %s s | %s | %s |\n", name, len(cs), fmtRange(walls(cs), "%.2f"), fmtRange(cpus(cs), "%.2f"),
			fmtBytes(bench.Median(rsss(cs))), fmtRange(mb, "%.1f"))
	}
	row("steadysweep analyze", ours)
	row("steadysweep analyze --compat reference", compat)
	row("steadysweep analyze, column cache warm (`--cache-dir`, no `--no-cache`)", warm)
	if ref != nil {
		row(fmt.Sprintf("reference (Python %s)", pyInfo), ref)
	}
	b.WriteString("\n")
	if ref == nil {
		fmt.Fprintf(&b, "The reference was **not measured**: %s. Point STEADYSWEEP_REFERENCE at a copy of "+
			"`src/inference_endpoint/metrics/steady_state_diagnostics.py` from mlcommons/endpoints @ 40b78bfe "+
			"(it is not vendored here) and rerun.\n\n", why)
		e.targets = append(e.targets, target{name: "analyze vs reference", goal: "≥ 10× faster, peak RSS ≤ reference",
			measured: "not measured (" + why + ")", ratio: "–", verdict: "not measured"})
		return b.String(), nil
	}
	same, desc, err := sameSteadyState(compatJSON, refJSON)
	if err != nil {
		return "", err
	}
	if same {
		fmt.Fprintf(&b, "`--compat reference` and the reference agree on the result (%s).\n\n", desc)
	} else {
		fmt.Fprintf(&b, "**`--compat reference` and the reference disagree** on the headline (ours: %s).\n\n", desc)
	}
	if !strings.HasPrefix(pyInfo, "3.12") && !strings.HasPrefix(pyInfo, "3.13") && !strings.HasPrefix(pyInfo, "3.14") {
		fmt.Fprintf(&b, "The reference declares Python ≥ 3.12; it ran here on Python %s, which works and differs only in the "+
			"last bits of some floating-point sums (3.12 made `sum()` of floats compensated) — immaterial for timing.\n\n", pyInfo)
	}
	speed := bench.Median(walls(ref)) / bench.Median(walls(ours))
	speedCPU := bench.Median(cpus(ref)) / bench.Median(cpus(ours))
	speedCompat := bench.Median(walls(ref)) / bench.Median(walls(compat))
	speedWarm := bench.Median(walls(ref)) / bench.Median(walls(warm))
	rssRatio := bench.Median(rsss(ours)) / bench.Median(rsss(ref))
	fmt.Fprintf(&b, "Speed-up over the reference: **%.1f×** wall (%.1f× CPU); with `--compat reference` %.1f× wall; "+
		"with a warm column cache (which the reference has no counterpart of) %.1f×. Peak RSS: ours is %.2f× the "+
		"reference's.\n\n", speed, speedCPU, speedCompat, speedWarm, rssRatio)
	if e.bigDecWords != nil {
		dec := bench.Median(bench.CPUs(e.bigDecWords))
		fmt.Fprintf(&b, "Decoding this log with word counts alone (section 1, one worker) takes %.2f s of CPU: %.0f%% of "+
			"analyze's %.2f s. So the decoder bounds the speed-up: even a free analysis would leave ours at most %.1f× "+
			"faster than the reference in CPU time.\n\n", dec, 100*dec/bench.Median(cpus(ours)), bench.Median(cpus(ours)),
			bench.Median(cpus(ref))/dec)
	}
	v := verdict(speed, 10, "")
	if rssRatio > 1 {
		v = fmt.Sprintf("**RSS missed: %.2f× the reference's**; speed %s", rssRatio, v)
	}
	e.targets = append(e.targets, target{
		name:     "analyze vs reference (same log, word counter)",
		goal:     "≥ 10× faster, peak RSS ≤ reference",
		measured: fmt.Sprintf("%.2f s vs %.2f s wall; RSS %s vs %s", bench.Median(walls(ours)), bench.Median(walls(ref)), fmtBytes(bench.Median(rsss(ours))), fmtBytes(bench.Median(rsss(ref)))),
		ratio:    fmt.Sprintf("%.1f× faster (wall), %.1f× (CPU); RSS %.2f×", speed, speedCPU, rssRatio),
		verdict:  v,
	})
	return b.String(), nil
}
