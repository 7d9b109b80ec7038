package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// sharedTokenizers are the shared tokenizer names, in the README's order.
var sharedTokenizers = []string{"deepseek_v3", "deepseek_r1_derived", "gptoss", "qwen3", "llama3_1"}

// hfReadme are shared/tokenizers/README.md's "single" figures (MB/s,
// Mtok/s) for the HF Rust tokenizer on this machine, used when it cannot be
// re-measured.
var hfReadme = map[string][2]float64{
	"deepseek_v3": {1.57, 0.51},
	"gptoss":      {1.88, 0.60},
	"qwen3":       {1.44, 0.53},
	"llama3_1":    {1.89, 0.62},
}

const hfPackage = "@anush008/tokenizers@0.6.0"

type vector struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
}

func readVectors(path string) ([]vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	out, err := bench.ReadJSONL[vector](zr, 64<<20)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// tokResult is one tokenizer's measurement, ours or HF's.
type tokResult struct {
	Name   string    `json:"name"`
	Bytes  int64     `json:"bytes"`
	Tokens int64     `json:"tokens"`
	LoadS  float64   `json:"load_s"`
	WallS  []float64 `json:"wall_s"`
	CPUS   []float64 `json:"cpu_s"`
}

func (r tokResult) rate(per float64, secs []float64) []float64 {
	out := make([]float64, len(secs))
	for i, s := range secs {
		out[i] = per / s / 1e6
	}
	return out
}

func (r tokResult) mbps() []float64     { return r.rate(float64(r.Bytes), r.WallS) }
func (r tokResult) mtoks() []float64    { return r.rate(float64(r.Tokens), r.WallS) }
func (r tokResult) mbPerCPU() []float64 { return r.rate(float64(r.Bytes), r.CPUS) }

// measureOurs times Tokenizer.Count over every text, one call per text on
// one goroutine, after one warm-up pass (which also checks the counts).
func measureOurs(e *env, name string, reps int) (tokResult, error) {
	dir := filepath.Join(e.shared, "tokenizers")
	vs, err := readVectors(filepath.Join(dir, "vectors", name+".jsonl.gz"))
	if err != nil {
		return tokResult{}, err
	}
	if e.quick {
		vs = vs[:min(len(vs), 1500)]
	}
	r := tokResult{Name: name}
	for _, v := range vs {
		r.Bytes += int64(len(v.Text))
		r.Tokens += int64(v.Count)
	}
	t0 := time.Now()
	tok, err := tokenizer.Load(filepath.Join(dir, name, "tokenizer.json.gz"))
	if err != nil {
		return r, err
	}
	r.LoadS = time.Since(t0).Seconds()
	for i, v := range vs {
		if n := tok.Count(v.Text); n != v.Count {
			return r, fmt.Errorf("%s: text %d counts %d tokens, HF %d", name, i, n, v.Count)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for range reps {
		runtime.GC()
		s, _ := bench.Time(func() error {
			for _, v := range vs {
				tok.Count(v.Text)
			}
			return nil
		})
		r.WallS = append(r.WallS, s.Wall)
		r.CPUS = append(r.CPUS, s.CPU)
	}
	return r, nil
}

// hfNode installs (once, into the bench cache) and returns the npm prefix
// holding the HF binding, or a reason it is unavailable.
func hfNode(e *env) (string, string) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", "node is not installed"
	}
	cache := os.Getenv("STEADYSWEEP_BENCH_CACHE")
	if cache == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return "", "no cache directory for the npm package: " + err.Error()
		}
		cache = filepath.Join(d, "steadysweep-bench")
	}
	prefix := filepath.Join(cache, "hf-node")
	if _, err := os.Stat(filepath.Join(prefix, "node_modules", "@anush008", "tokenizers", "package.json")); err == nil {
		return prefix, ""
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", "npm is not installed"
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return "", err.Error()
	}
	e.logf("tokenizer: npm install --prefix %s %s", prefix, hfPackage)
	ctx, cancel := context.WithTimeout(e.ctx, 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--prefix", prefix, "--no-save", "--no-audit", "--no-fund", hfPackage)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Sprintf("`npm install %s` failed (%v): %s", hfPackage, err, strings.TrimSpace(tail(out.String(), 300)))
	}
	return prefix, ""
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// measureHF runs bench/scripts/hf_tokenize.js for the given tokenizers.
func measureHF(e *env, prefix string, names []string, reps int) (map[string]tokResult, error) {
	script, err := filepath.Abs(filepath.Join("bench", "scripts", "hf_tokenize.js"))
	if err != nil {
		return nil, err
	}
	out := map[string]tokResult{}
	for _, name := range names {
		e.logf("tokenizer: HF %s ×%d", name, reps)
		cmd := exec.CommandContext(e.ctx, "node", script, prefix, filepath.Join(e.shared, "tokenizers"), strconv.Itoa(reps), name)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("node %s: %w: %s", script, err, tail(stderr.String(), 500))
		}
		var r tokResult
		if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &r); err != nil {
			return nil, fmt.Errorf("node %s: %w", script, err)
		}
		out[name] = r
	}
	return out, nil
}

func tokenizerSection(e *env) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "## 2. Tokenizer\n\n")
	if _, err := os.Stat(filepath.Join(e.shared, "tokenizers", "vectors")); err != nil {
		fmt.Fprintf(&b, "Skipped: the shared tokenizers (%s) are absent.\n\n", filepath.Join(e.shared, "tokenizers"))
		return b.String(), nil
	}
	names := sharedTokenizers
	reps := e.reps
	ours := map[string]tokResult{}
	for _, n := range names {
		e.logf("tokenizer: ours %s ×%d", n, reps)
		r, err := measureOurs(e, n, reps)
		if err != nil {
			return "", err
		}
		ours[n] = r
	}
	var hf map[string]tokResult
	prefix, why := hfNode(e)
	if prefix != "" && !e.quick {
		var err error
		if hf, err = measureHF(e, prefix, names, *hfRepsFlag); err != nil {
			why = err.Error()
			hf = nil
		}
	} else if e.quick {
		why = "-quick"
	}

	fmt.Fprintf(&b, "The shared texts of each tokenizer (`shared/tokenizers/vectors/<name>.jsonl.gz`: 3000 texts, 3.17 MB, "+
		"add_special_tokens=false). Ours: `tokenizer.Tokenizer.Count`, one call per text on one goroutine (locked to its "+
		"thread), after one warm-up pass that also checks every count against the HF ids. ")
	if hf != nil {
		fmt.Fprintf(&b, "HF: the Rust tokenizers 0.22 through the N-API binding npm `%s` (`bench/scripts/hf_tokenize.js`), "+
			"one awaited `encode(text, null, {addSpecialTokens:false})` per text, after one warm-up pass — the \"single\" "+
			"setting of shared/tokenizers/README.md (its ~0.05 ms of binding overhead per call is included, as there). "+
			"Both measured in this run, one after the other. Ours is the median of %d passes, HF's of %d (each HF pass "+
			"takes seconds; `-hf-reps` sets it; shared/tokenizers/README.md used 3).\n\n", hfPackage, reps, *hfRepsFlag)
	} else {
		fmt.Fprintf(&b, "HF was **not re-measured** (%s); its column is shared/tokenizers/README.md's \"single\" figures "+
			"(median of 3 runs on this machine type, measured earlier).\n\n", why)
	}
	fmt.Fprintf(&b, "| tokenizer | load | ours Mtok/s | ours MB/s | ours MB/CPU-s | HF Mtok/s | HF MB/s | HF MB/CPU-s | ours/HF (wall) | ours/HF (CPU) |\n")
	fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var worst = -1.0
	var worstName string
	var ratios []string
	for _, n := range names {
		o := ours[n]
		row := fmt.Sprintf("| %s | %.2f s | %s | %s | %s |", n, o.LoadS, fmtRange(o.mtoks(), "%.2f"), fmtRange(o.mbps(), "%.2f"), fmtRange(o.mbPerCPU(), "%.2f"))
		var ratio float64
		if h, ok := hf[n]; ok {
			rw := bench.Median(o.mbps()) / bench.Median(h.mbps())
			rc := bench.Median(o.mbPerCPU()) / bench.Median(h.mbPerCPU())
			row += fmt.Sprintf(" %s | %s | %s | %.2f× | %.2f× |", fmtRange(h.mtoks(), "%.2f"), fmtRange(h.mbps(), "%.2f"), fmtRange(h.mbPerCPU(), "%.2f"), rw, rc)
			ratio = rw
			ratios = append(ratios, fmt.Sprintf("%s %.2f×", n, rw))
		} else if f, ok := hfReadme[n]; ok {
			rw := bench.Median(o.mbps()) / f[0]
			row += fmt.Sprintf(" %.2f (README) | %.2f (README) | – | %.2f× (vs README) | – |", f[1], f[0], rw)
			ratio = rw
			ratios = append(ratios, fmt.Sprintf("%s %.2f× (vs README)", n, rw))
		} else {
			row += " – | – | – | – | – |"
			ratio = -1
		}
		if ratio >= 0 && (worst < 0 || ratio < worst) {
			worst, worstName = ratio, n
		}
		fmt.Fprintln(&b, row)
	}
	b.WriteString("\nLoad is gunzip + parse of tokenizer.json.gz (ours: `tokenizer.Load`).\n\n")
	if worst >= 0 {
		src := "HF measured in this run"
		if hf == nil {
			src = "HF figures from shared/tokenizers/README.md, not re-measured"
		}
		e.targets = append(e.targets, target{
			name:     "tokenizer per core vs HF",
			goal:     "≥ 1.0× HF single-threaded",
			measured: strings.Join(ratios, ", ") + " (MB/s, wall; " + src + ")",
			ratio:    fmt.Sprintf("lowest %.2f× (%s)", worst, worstName),
			verdict:  verdict(worst, 1, ""),
		})
	}
	return b.String(), nil
}
