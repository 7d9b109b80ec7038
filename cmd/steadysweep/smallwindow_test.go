package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/synth"
)

// TestSmallWindowWarning: `analyze --superpass-size 5` of a 25-request
// run (issue 26) certified a steady p99 of a 25-sample window with no
// warning. PercentileLower takes sorted[trunc(p·(n−1))]: from n ≤ 101
// samples the p99 is the second-largest (n ≥ 2), from n ≤ 11 the p90 too
// — and a super-pass of 5 has p90 = sorted[trunc(0.9·4)] = sorted[3], its
// second-largest. The text report says so, and stderr when stdout carries
// the JSON instead (--json -), with the window's sample count read from
// the JSON (steady_state.window.n_samples); a run whose window holds 102
// or more samples gets no such line.
func TestSmallWindowWarning(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	space := regexp.MustCompile(`\s+`)
	analyze := func(dir string, extra ...string) (text, stderr string, n int) {
		t.Helper()
		jsonPath := filepath.Join(t.TempDir(), "result.json")
		args := append([]string{"analyze", dir, "--tokenizer", "words", "--json", jsonPath}, extra...)
		out, errb := mustRun(t, args...)
		f, ok := number(get(jsonObject(t, jsonPath), "steady_state.window.n_samples"))
		if !ok {
			t.Fatalf("%v: no steady window in the JSON:\n%s", args, out)
		}
		return space.ReplaceAllString(out, " "), errb, int(f)
	}

	small := presetRun(t, filepath.Join(t.TempDir(), "small"), "clean_ramp", 1, func(s *synth.Spec) {
		s.DatasetSize, s.Passes = 5, 5 // 25 requests
	})
	// The requests, counted in the raw log.
	if got := strings.Count(string(mustRead(t, filepath.Join(small, "events.jsonl"))), `"event_type":"sample.complete"`); got != 25 {
		t.Fatalf("the small run completes %d requests, want 25", got)
	}
	text, stderr, n := analyze(small, "--superpass-size", "5")
	if n < 12 || n > 101 {
		t.Fatalf("the 25-request run's window holds %d samples; the test wants 12..101 (p99 alone second-largest)", n)
	}
	want := fmt.Sprintf("the steady window holds %d samples: its p99 is its second-largest sample (a p99 needs 102 samples to rest on more than the two largest)", n)
	if !strings.Contains(text, "warning: "+want) {
		t.Errorf("the text report does not say %q:\n%s", want, text)
	}
	if strings.Contains(stderr, want) {
		t.Errorf("stderr repeats the report's warning:\n%s", stderr)
	}
	_, errb := mustRun(t, "analyze", small, "--tokenizer", "words", "--superpass-size", "5", "--json", "-")
	if !strings.Contains(errb, "events.jsonl: "+want+"\n") {
		t.Errorf("with --json -, stderr does not say %q:\n%s", want, errb)
	}
	spWant := "warning: --superpass-size: super-pass size 5: each super-pass's p90, which the stability gates test, is its second-largest sample (a p90 needs 12 samples to rest on more than the two largest)\n"
	if !strings.Contains(stderr, spWant) {
		t.Errorf("stderr does not say %q:\n%s", spWant, stderr)
	}

	big := presetRun(t, filepath.Join(t.TempDir(), "big"), "clean_ramp", 1, nil)
	text, stderr, n = analyze(big)
	if n < 102 {
		t.Fatalf("the clean_ramp window holds %d samples; the test wants at least 102", n)
	}
	for name, s := range map[string]string{"text": text, "stderr": stderr} {
		if strings.Contains(s, "steady window holds") || strings.Contains(s, "p90, which the stability gates test") {
			t.Errorf("the %d-sample window warns in %s:\n%s", n, name, s)
		}
	}
}
