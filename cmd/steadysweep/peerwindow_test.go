package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// peerGuideLLM is a generated GuideLLM ≥ 0.5 report of one concurrent
// benchmark (4 streams): n requests issued every 0.25 s from t0 (epoch
// s), each lasting 1 s with a TTFT of 100–104 ms and 20 output tokens, and
// the measure window [t0+lo, t0+hi] in scheduler_metrics.
func peerGuideLLM(n int, t0, lo, hi float64) string {
	reqs := make([]string, n)
	for i := range reqs {
		s := t0 + 0.25*float64(i)
		reqs[i] = fmt.Sprintf(`{"request_id": "r%d", "request_start_time": %v, "request_end_time": %v, "time_to_first_token_ms": %v, "prompt_tokens": 100, "output_tokens": 20, `+
			`"info": {"status": "completed", "timings": {"request_start": %[2]v, "request_end": %[3]v}}}`, i, s, s+1, 100+float64(i*7%5))
	}
	return fmt.Sprintf(`{"metadata": {"guidellm_version": "0.5.0"}, "benchmarks": [{"config": {"strategy": {"type_": "concurrent", "streams": 4}}, `+
		`"scheduler_metrics": {"start_time": %v, "measure_start_time": %v, "measure_end_time": %v}, `+
		`"requests": {"successful": [%s], "errored": [], "incomplete": []}}]}`, t0, t0+lo, t0+hi, strings.Join(reqs, ", "))
}

// TestSweepPeerWindows: three generated GuideLLM 0.5 reports with known
// measure windows swept: each row carries the window written into its
// file (peer_window_start_ns/end_ns) and the differences to ours as the
// series table places our window (its first super-pass's first issue; its
// last super-pass's last issue + the 1 s every request lasts); the sweep
// summary gives the median of those differences; the run pages show the
// window and the same differences.
func TestSweepPeerWindows(t *testing.T) {
	arch := t.TempDir()
	const t0 = 1.7e9
	windows := map[string][2]float64{"a": {20, 220}, "b": {35, 200}, "c": {5, 230}}
	for name, w := range windows {
		dir := filepath.Join(arch, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "benchmarks.json"), []byte(peerGuideLLM(960, t0, w[0], w[1])), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "out")
	stderr, err := sweepCLI(t, arch, "-o", out, "--tokenizer", "words", "--no-cache", "--run-pages")
	if err != nil {
		t.Fatalf("sweep: %v\n%s", err, stderr)
	}
	rows := tableRowsOf(t, filepath.Join(out, "rows"))
	series := tableRowsOf(t, filepath.Join(out, "series"))
	spOf := func(runID string, sp int64) map[string]any {
		for _, s := range series {
			if s["run_id"] == runID && s["sp"] == sp {
				return s
			}
		}
		t.Fatalf("run %s: no series row for super-pass %d", runID, sp)
		return nil
	}
	var starts, ends []float64
	for _, r := range rows {
		rel, _ := r["run_rel"].(string)
		w, ok := windows[strings.SplitN(rel, "/", 2)[0]]
		if !ok {
			t.Fatalf("row of %q", rel)
		}
		if src, _ := r["peer_window_source"].(string); !strings.Contains(src, "measure_start_time") {
			t.Errorf("%s: peer_window_source %q", rel, src)
		}
		// The window as written, s → ns (float64 of the epoch s, as the reader parses it).
		wantS, wantE := int64(math.Round((t0+w[0])*1e9)), int64(math.Round((t0+w[1])*1e9))
		gotS, _ := r["peer_window_start_ns"].(int64)
		gotE, _ := r["peer_window_end_ns"].(int64)
		if d := gotS - wantS; d < -1000 || d > 1000 {
			t.Errorf("%s: peer_window_start_ns %d, the file's %d", rel, gotS, wantS)
		}
		if d := gotE - wantE; d < -1000 || d > 1000 {
			t.Errorf("%s: peer_window_end_ns %d, the file's %d", rel, gotE, wantE)
		}
		lo, okLo := r["window_start_sp"].(int64)
		hi, okHi := r["window_end_sp"].(int64)
		if !okLo || !okHi {
			t.Fatalf("%s: no window of ours (%v): the generated run is steady", rel, r["reason"])
		}
		first, _ := spOf(r["run_id"].(string), lo)["first_issue_ns"].(int64)
		last, _ := spOf(r["run_id"].(string), hi)["last_issue_ns"].(int64)
		wantDS, wantDE := float64(first-gotS)/1e9, float64(last+1e9-gotE)/1e9
		ds, _ := r["peer_window_start_diff_s"].(float64)
		de, _ := r["peer_window_end_diff_s"].(float64)
		if math.Abs(ds-wantDS) > 1e-6 || math.Abs(de-wantDE) > 1e-6 {
			t.Errorf("%s: diffs %v, %v s; the series places ours %v, %v s from the peer's", rel, ds, de, wantDS, wantDE)
		}
		starts, ends = append(starts, ds), append(ends, de)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	slices.Sort(starts)
	slices.Sort(ends)
	word := func(d float64) string {
		if d >= 0 {
			return fmt.Sprintf("%.1f s later", d)
		}
		return fmt.Sprintf("%.1f s earlier", -d)
	}
	line := fmt.Sprintf("peer windows: 3 runs record the tool's own; on median ours starts %s and ends %s (3 runs with both windows)",
		word(starts[1]), word(ends[1]))
	if !strings.Contains(stderr, line) {
		t.Errorf("summary lacks %q:\n%s", line, stderr)
	}
	pages, err := filepath.Glob(filepath.Join(out, "pages", "*.html"))
	if err != nil || len(pages) != 3 {
		t.Fatalf("run pages %v (%v), want 3", pages, err)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "guidellm scheduler_metrics.measure_start_time/measure_end_time") ||
			!strings.Contains(string(b), "ours vs the peer") {
			t.Errorf("%s: no peer window shown", p)
		}
	}
}
