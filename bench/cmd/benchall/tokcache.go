package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/steadysweep/steadysweep/bench"
)

// gpt-oss as the Hugging Face hub names it, and where its files lie in a
// hub cache (snapshot "r1").
const tokcacheModel, tokcacheSnapshot = "openai/gpt-oss-120b", "models--openai--gpt-oss-120b/snapshots/r1"

// gunzipFile writes the gunzipped bytes of src to dst.
func gunzipFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	return os.WriteFile(dst, out, 0o644)
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

func modTime(path string) time.Time {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Now()
	}
	return fi.ModTime()
}

func sameFile(a, b string) bool {
	x, errA := os.ReadFile(a)
	y, errB := os.ReadFile(b)
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

// missingShared says why the shared run dir or gpt-oss's tokenizer
// (which a zero-flag analyze of a parity run resolves) is absent, or "".
func missingShared(e *env, run string) string {
	for _, p := range []string{filepath.Join(run, "events.jsonl"), filepath.Join(e.shared, "tokenizers", "gptoss", "tokenizer.json.gz")} {
		if _, err := os.Stat(p); err != nil {
			return err.Error()
		}
	}
	return ""
}

// gptossHub lays out a Hugging Face hub cache at hub holding gpt-oss's
// tokenizer.json uncompressed (as the hub stores it) and its
// tokenizer_config.json, aged 2 s, and returns hub and the size of
// tokenizer.json.
func gptossHub(e *env, hub string) (string, int64, error) {
	srcTok := filepath.Join(e.shared, "tokenizers", "gptoss")
	snap := filepath.Join(hub, filepath.FromSlash(tokcacheSnapshot))
	if err := os.MkdirAll(snap, 0o755); err != nil {
		return "", 0, err
	}
	tokJSON := filepath.Join(snap, "tokenizer.json")
	if err := gunzipFile(filepath.Join(srcTok, "tokenizer.json.gz"), tokJSON); err != nil {
		return "", 0, err
	}
	cfg, err := os.ReadFile(filepath.Join(srcTok, "tokenizer_config.json"))
	if err != nil {
		return "", 0, err
	}
	if err := os.WriteFile(filepath.Join(snap, "tokenizer_config.json"), cfg, 0o644); err != nil {
		return "", 0, err
	}
	// A file changed less than 2 s before it is hashed gets no sum record
	// (columnar/tokenizer/filesum.go): a hub's tokenizer.json was
	// downloaded long before, so let this one age as much.
	time.Sleep(time.Until(modTime(tokJSON).Add(2100 * time.Millisecond)))
	return hub, fileSize(tokJSON), nil
}

// hubEnv is this process's environment with hub as the only Hugging Face
// cache a child can find.
func hubEnv(hub string) []string {
	return append(os.Environ(), "HF_HUB_CACHE="+hub, "HF_HOME=", "XDG_CACHE_HOME=", "HUGGINGFACE_HUB_CACHE=")
}

// tokcacheSection measures issue 32's tokenizer target: a zero-flag
// analyze of a 2.7 MB run whose config.yaml names gpt-oss, resolved
// through the registry and a Hugging Face cache holding gpt-oss's
// tokenizer.json uncompressed (27.9 MB, as the hub stores it). Per rep,
// fresh processes on a new cache directory: the first run (parses the
// JSON, writes the compiled entry and the record of the file's SHA-256),
// the second (the column cache removed, the tokenizer cache kept: the
// target), the same without the sum record (the file hashed again, as
// before the record existed), and `--tokenizer words` on a new cache for
// scale.
func tokcacheSection(e *env) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "### Tokenizer cache: zero-flag analyze with gpt-oss's tokenizer (`benchall -sections tokcache`)\n\n")
	srcRun := filepath.Join(e.shared, "parity", "runs", "conc_hairball_tail")
	if why := missingShared(e, srcRun); why != "" {
		fmt.Fprintf(&b, "Not measured: %s.\n\n", why)
		return b.String(), nil
	}
	dir := filepath.Join(e.work, "tokcache")
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		return "", err
	}
	entries, err := os.ReadDir(srcRun)
	if err != nil {
		return "", err
	}
	for _, en := range entries {
		data, err := os.ReadFile(filepath.Join(srcRun, en.Name()))
		if err != nil {
			return "", err
		}
		if en.Name() == "config.yaml" {
			// The zero-flag analyze resolves the tokenizer from the model name.
			data = []byte(strings.Replace(string(data), "name: deepseek-ai/DeepSeek-R1", "name: "+tokcacheModel, 1))
			if !strings.Contains(string(data), "name: "+tokcacheModel) {
				return "", fmt.Errorf("%s: no model name to replace", en.Name())
			}
		}
		if err := os.WriteFile(filepath.Join(run, en.Name()), data, 0o644); err != nil {
			return "", err
		}
	}
	hub, tokSize, err := gptossHub(e, filepath.Join(dir, "hf", "hub"))
	if err != nil {
		return "", err
	}
	runSize := fileSize(filepath.Join(run, "events.jsonl"))

	jsonOut := filepath.Join(dir, "out")
	analyze := func(cache string, n int, extra ...string) *exec.Cmd {
		args := append([]string{"analyze", run, "--cache-dir", cache, "--json", fmt.Sprintf("%s-%d.json", jsonOut, n)}, extra...)
		cmd := exec.CommandContext(e.ctx, e.bin, args...)
		cmd.Env = hubEnv(hub)
		return cmd
	}
	// keepTokenizers empties cache but for the tokenizer cache (the
	// column cache cold), and without the sum records when hashing.
	keepTokenizers := func(cache string, hashing bool) error {
		entries, err := os.ReadDir(cache)
		if err != nil {
			return err
		}
		for _, en := range entries {
			if en.Name() != "tokenizers" {
				if err := os.RemoveAll(filepath.Join(cache, en.Name())); err != nil {
					return err
				}
			}
		}
		if hashing {
			return os.RemoveAll(filepath.Join(cache, "tokenizers", "ids"))
		}
		return nil
	}
	var first, second, hashing, words []bench.Child
	same := true
	for i := range e.reps {
		e.logf("tokcache: first, second, second hashing, words (%d/%d)", i+1, e.reps)
		cache := filepath.Join(dir, fmt.Sprintf("cache-%d", i))
		f, err := bench.RunChild(analyze(cache, 1))
		if err != nil {
			return "", err
		}
		if err := keepTokenizers(cache, false); err != nil {
			return "", err
		}
		s, err := bench.RunChild(analyze(cache, 2))
		if err != nil {
			return "", err
		}
		if err := keepTokenizers(cache, true); err != nil {
			return "", err
		}
		h, err := bench.RunChild(analyze(cache, 3))
		if err != nil {
			return "", err
		}
		w, err := bench.RunChild(analyze(filepath.Join(dir, fmt.Sprintf("words-%d", i)), 4, "--tokenizer", "words"))
		if err != nil {
			return "", err
		}
		first, second, hashing, words = append(first, f), append(second, s), append(hashing, h), append(words, w)
		same = same && sameFile(jsonOut+"-1.json", jsonOut+"-2.json") && sameFile(jsonOut+"-1.json", jsonOut+"-3.json")
		if err := os.RemoveAll(cache); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(&b, "`shared/parity/runs/conc_hairball_tail` (%.2f MB) with `model_params.name: openai/gpt-oss-120b` in its config.yaml, so that the zero-flag "+
		"analyze resolves gpt-oss through the registry and the Hugging Face cache; `shared/tokenizers/gptoss/tokenizer.json` (%.1f MB, uncompressed as the hub "+
		"stores it) and its tokenizer_config.json in `HF_HUB_CACHE=HUB` under `models--openai--gpt-oss-120b/snapshots/r1/`, at least 2 s old. "+
		"Per rep, fresh processes on a new cache directory, in this order:\n\n", float64(runSize)/1e6, float64(tokSize)/1e6)
	fmt.Fprintf(&b, "```sh\nsteadysweep analyze RUN --cache-dir CACHE --json out.json     # first run: new cache\n"+
		"find CACHE -mindepth 1 -maxdepth 1 ! -name tokenizers -exec rm -rf {} +   # column cache cold, tokenizer cache warm\n"+
		"steadysweep analyze RUN --cache-dir CACHE --json out.json     # second run (the target)\n"+
		"find CACHE -mindepth 1 -maxdepth 1 ! -name tokenizers -exec rm -rf {} +; rm -r CACHE/tokenizers/ids\n"+
		"steadysweep analyze RUN --cache-dir CACHE --json out.json     # second run without the sum record: hashes tokenizer.json\n"+
		"steadysweep analyze RUN --cache-dir NEW --tokenizer words --json out.json   # for scale\n```\n\n")
	fmt.Fprintf(&b, "Peak RSS from %s. The three gpt-oss reports are %s.\n\n", bench.RSSMethod(), map[bool]string{true: "identical", false: "**not identical**"}[same])
	fmt.Fprintf(&b, "| run | reps | wall | CPU | peak RSS |\n|---|---:|---:|---:|---:|\n")
	row := func(name string, cs []bench.Child) {
		fmt.Fprintf(&b, "| %s | %d | %s s | %s s | %s |\n", name, len(cs), fmtRange(walls(cs), "%.3f"), fmtRange(cpus(cs), "%.3f"), fmtBytes(bench.Median(rsss(cs))))
	}
	row("first (parses tokenizer.json, writes the compiled entry and the sum record)", first)
	row("**second** (tokenizer cache warm, column cache cold)", second)
	row("second without the sum record (hashes tokenizer.json)", hashing)
	row("`--tokenizer words`, new cache", words)
	b.WriteString("\n")
	sw := bench.Median(walls(second))
	e.addTarget(target{key: "i32-tokcache", name: "gpt-oss tokenizer: zero-flag analyze of 2.7 MB, second run (tokenizer cache warm, column cache cold)", goal: "≤ 0.25 s wall",
		measured: fmt.Sprintf("%.3f s wall, %.3f s CPU; first run %.2f s wall, %.2f s CPU", sw, bench.Median(cpus(second)), bench.Median(walls(first)), bench.Median(cpus(first))),
		ratio:    fmt.Sprintf("%.2f× the budget", sw/0.25), verdict: verdict(0.25/sw, 1, "")})
	return b.String(), nil
}
