package synth

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

func TestPresetSpec_UnknownNameListsValidOnes(t *testing.T) {
	_, err := PresetSpec("no_such_preset", 1)
	if err == nil {
		t.Fatal("PresetSpec(no_such_preset) returned no error")
	}
	for _, name := range Presets() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list preset %s", err, name)
		}
	}
}

func TestPresets_NamesFromTheIssue(t *testing.T) {
	want := []string{"clean_ramp", "long_ramp", "late_staircase", "two_staircases", "drift_up", "drift_down",
		"hairball_tail", "noisy", "ramp_only", "partial_dataset", "insufficient_passes", "truncated",
		"failures_retries", "poisson_steady", "offline_burst", "agentic",
		"long_context_clean", "long_context_staircase", "long_context_short_tail", "long_context_drift_up",
		"long_context_drift_down", "long_context_poisson"}
	if got := Presets(); !slices.Equal(got, want) {
		t.Errorf("Presets() = %v\nwant %v", got, want)
	}
}

// TestPresets_Verdicts pins the verdict each preset plants (issue 6's list).
func TestPresets_Verdicts(t *testing.T) {
	want := map[string]string{
		"clean_ramp": "steady", "long_ramp": "steady", "late_staircase": "anomaly", "two_staircases": "anomaly",
		"drift_up": "drifting_up", "drift_down": "drifting_down", "hairball_tail": "steady", "noisy": "not_found",
		"ramp_only": "not_found", "partial_dataset": "partial_dataset", "insufficient_passes": "insufficient_passes",
		"truncated": "steady", "failures_retries": "steady", "poisson_steady": "steady",
		"offline_burst": "not_supported", "agentic": "not_supported",
		"long_context_clean": "steady", "long_context_staircase": "anomaly", "long_context_short_tail": "anomaly",
		"long_context_drift_up": "drifting_up", "long_context_drift_down": "drifting_down", "long_context_poisson": "steady",
	}
	for _, name := range Presets() {
		t.Run(name, func(t *testing.T) {
			_, truth := generatePreset(t, name, 11)
			if truth.ExpectedVerdict.Verdict != want[name] {
				t.Errorf("verdict %q (%s), want %q", truth.ExpectedVerdict.Verdict, truth.ExpectedVerdict.Reason, want[name])
			}
		})
	}
}

// TestPresets_EnvelopeMatchesParity checks, for every preset, that each event
// type's ordered key list is one the parity corpus uses for that type.
func TestPresets_EnvelopeMatchesParity(t *testing.T) {
	shared := sharedtest.Dir(t, "parity/runs")
	runs, err := filepath.Glob(filepath.Join(shared, "parity", "runs", "*", "events.jsonl"))
	if err != nil || len(runs) == 0 {
		t.Fatalf("no parity runs: %v", err)
	}
	allowed := map[string][]string{}
	for _, path := range runs {
		// The first 4000 lines of each run hold every key variant (they repeat
		// throughout a run); reading whole files costs seconds.
		for typ, sigs := range signaturesByType(readParseableEvents(t, path, 4000)) {
			for _, sig := range sigs {
				if !slices.Contains(allowed[typ], sig) {
					allowed[typ] = append(allowed[typ], sig)
				}
			}
		}
	}
	for _, name := range Presets() {
		t.Run(name, func(t *testing.T) {
			dir, _ := generatePreset(t, name, 5)
			events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
			for typ, sigs := range signaturesByType(events) {
				for _, sig := range sigs {
					if !slices.Contains(allowed[typ], sig) {
						t.Errorf("%s keys %s not seen in any parity run (allowed %v)", typ, sig, allowed[typ])
					}
				}
			}
		})
	}
}

// TestPresets_ConfigLikeParity parses config.yaml and compares its key paths
// with the parity run of the same load pattern.
func TestPresets_ConfigLikeParity(t *testing.T) {
	shared := sharedtest.Dir(t, "parity/runs")
	for preset, parityRun := range map[string]string{
		"late_staircase": "conc_staircase_late", "poisson_steady": "poisson_steady",
		"offline_burst": "offline_burst", "agentic": "agentic_tools",
	} {
		t.Run(preset, func(t *testing.T) {
			dir, _ := generatePreset(t, preset, 1)
			got := yamlKeyPaths(t, filepath.Join(dir, "config.yaml"))
			// The parity Poisson run has a warmup phase (n_requests); synth
			// runs have none, so that one key is absent by design. Synth
			// runs declare their tokenizer (model_params.tokenizer_name:
			// words, a key the endpoints config has), so that one is added.
			want := slices.DeleteFunc(yamlKeyPaths(t, filepath.Join(shared, "parity", "runs", parityRun, "config.yaml")),
				func(p string) bool { return p == ".settings.warmup.n_requests" })
			if i := slices.Index(want, ".model_params.name"); i >= 0 {
				want = slices.Insert(want, i+1, ".model_params.tokenizer_name")
			}
			if !slices.Equal(got, want) {
				t.Errorf("config.yaml key paths:\ngot  %v\nwant %v", got, want)
			}
		})
	}
}

// yamlKeyPaths lists every mapping key path of a YAML file in document order.
func yamlKeyPaths(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	var walk func(n *yaml.Node, prefix string)
	walk = func(n *yaml.Node, prefix string) {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, prefix)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := prefix + "." + n.Content[i].Value
				out = append(out, p)
				walk(n.Content[i+1], p)
			}
		}
	}
	walk(&doc, "")
	return out
}

func TestRampOnly_SamplesEqualConcurrency(t *testing.T) {
	dir, truth := generatePreset(t, "ramp_only", 1)
	events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
	issued := len(issueStamps(events))
	if issued != truth.Load.C || issued != 512 {
		t.Errorf("ramp_only issued %d samples, concurrency %d; want both 512", issued, truth.Load.C)
	}
	if truth.Planted.WarmupEndSP != nil {
		t.Errorf("ramp_only batch reached b_ref at %v; it should never fill", *truth.Planted.WarmupEndSP)
	}
}

func TestTruncated_NoEndAndCutLastLine(t *testing.T) {
	dir, truth := generatePreset(t, "truncated", 1)
	events, tail := readEvents(t, filepath.Join(dir, "events.jsonl"))
	if len(tail) == 0 {
		t.Fatal("truncated events.jsonl ends with a newline; the last line should be cut")
	}
	if json.Valid(tail) {
		t.Errorf("last line %q is valid JSON; it should be cut mid-line", tail)
	}
	if !utf8.Valid(tail) {
		t.Errorf("cut last line is not valid UTF-8: %q", tail)
	}
	if !bytes.HasPrefix(tail, []byte(`{"event_type":"`)) {
		t.Errorf("last line %q is not the start of an event", tail)
	}
	for _, e := range events {
		if typ := e.str("event_type"); typ == topicEnded || typ == topicStopTrack {
			t.Fatalf("truncated run has a %s line", typ)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sample_idx_map.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("truncated run has sample_idx_map.json (stat err %v); a killed run leaves none", err)
	}
	if !truth.FileNotes.Truncated || truth.FileNotes.TruncatedAtLine != len(events)+1 || truth.FileNotes.LastLineCharsKept != utf8.RuneCount(tail) {
		t.Errorf("file_notes %+v, want truncated at line %d keeping %d characters", truth.FileNotes, len(events)+1, utf8.RuneCount(tail))
	}
}

func TestPartialDataset_FewerIssuesThanDataset(t *testing.T) {
	dir, truth := generatePreset(t, "partial_dataset", 1)
	events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
	issued := len(issueStamps(events))
	if issued != 300 || issued >= truth.DatasetSize {
		t.Errorf("partial_dataset issued %d with dataset size %d; want 300 < 400", issued, truth.DatasetSize)
	}
}

func TestInsufficientPasses_TwoToThreePasses(t *testing.T) {
	_, truth := generatePreset(t, "insufficient_passes", 1)
	passes := float64(truth.Counts.TrackedIssuedInFile) / float64(truth.DatasetSize)
	if passes < 2 || passes > 3 {
		t.Errorf("insufficient_passes issued %.2f passes, want 2–3", passes)
	}
}

// TestFailuresRetries_ErrorLinesMatchTruth checks every failure is an
// error.generic followed by a COMPLETE with null data (larger timestamp on the
// error, as upstream publishes it) and that the counts agree with truth.json.
func TestFailuresRetries_ErrorLinesMatchTruth(t *testing.T) {
	dir, truth := generatePreset(t, "failures_retries", 1)
	events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
	errorsSeen, dupIssued, issuedOnce := 0, 0, map[string]bool{}
	for i, e := range events {
		switch e.str("event_type") {
		case topicErrorGeneric:
			errorsSeen++
			next := events[i+1]
			if next.str("event_type") != topicComplete || next.str("sample_uuid") != e.str("sample_uuid") || string(next.fields["data"]) != "null" {
				t.Fatalf("error.generic at line %d is not followed by its null COMPLETE", i+1)
			}
			if e.int64("timestamp_ns") <= next.int64("timestamp_ns") {
				t.Errorf("line %d: error.generic timestamp %d not after its COMPLETE %d", i+1, e.int64("timestamp_ns"), next.int64("timestamp_ns"))
			}
		case topicIssued:
			u := e.str("sample_uuid")
			if issuedOnce[u] {
				dupIssued++
			}
			issuedOnce[u] = true
		}
	}
	if errorsSeen != truth.Counts.FailedTracked || errorsSeen == 0 {
		t.Errorf("%d error.generic lines, truth failed_tracked %d", errorsSeen, truth.Counts.FailedTracked)
	}
	if dupIssued != truth.Counts.DuplicateIssued || dupIssued == 0 {
		t.Errorf("%d duplicate ISSUED lines, truth duplicate_issued %d", dupIssued, truth.Counts.DuplicateIssued)
	}
}

func TestPoisson_MeanGapMatchesQPS(t *testing.T) {
	dir, truth := generatePreset(t, "poisson_steady", 1)
	events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
	stamps := issueStamps(events)
	meanGapS := float64(stamps[len(stamps)-1]-stamps[0]) / float64(len(stamps)-1) / 1e9
	// 1599 exponential gaps: the mean's relative standard error is 1/√1599 ≈ 2.5 %.
	if rel := math.Abs(meanGapS*truth.Load.QPS - 1); rel > 0.1 {
		t.Errorf("mean issue gap %.4f s, want 1/qps = %.4f s (off by %.1f%%)", meanGapS, 1/truth.Load.QPS, 100*rel)
	}
}

func TestOffline_AllIssuedInABurst(t *testing.T) {
	dir, truth := generatePreset(t, "offline_burst", 1)
	events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
	stamps := issueStamps(events)
	// 1750 issues 15–45 µs apart take at most 1750 · 45 µs ≈ 79 ms.
	if span := float64(stamps[len(stamps)-1]-stamps[0]) / 1e6; span > 80 {
		t.Errorf("offline issues span %.1f ms, want a burst under 80 ms", span)
	}
	if truth.SimulatedPerSP[len(truth.SimulatedPerSP)-1].TTFTP50Ms < 10*truth.SimulatedPerSP[0].TTFTP50Ms {
		t.Errorf("offline TTFT p50 does not grow with queueing: first %v ms, last %v ms",
			truth.SimulatedPerSP[0].TTFTP50Ms, truth.SimulatedPerSP[len(truth.SimulatedPerSP)-1].TTFTP50Ms)
	}
}

// TestAgentic_TurnsAndTracking checks the multi-turn fields: every sample line
// carries its conversation id and turn, turns of a conversation instance come
// in order 1, 2, …, instance ids repeat as C__repeat_k, turns issued after
// STOP are untracked, and turns after a failure are registered as skipped.
func TestAgentic_TurnsAndTracking(t *testing.T) {
	dir, truth := generatePreset(t, "agentic", 1)
	events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
	lastTurn := map[string]int64{}
	stopped, untracked, repeats, aborted := false, 0, 0, 0
	for i, e := range events {
		typ := e.str("event_type")
		if typ == topicStopTrack {
			stopped = true
		}
		if typ == topicErrorGeneric && strings.Contains(string(e.fields["data"]), `"TurnAbortedByPriorFailure"`) {
			aborted++
			if prev := events[i-1]; prev.str("sample_uuid") != e.str("sample_uuid") ||
				string(prev.fields["data"]) != `["PromptData",null,null,null,null,null,null,null]` {
				t.Errorf("line %d: aborted turn not preceded by its ISSUED with null PromptData", i+1)
			}
		}
		if typ != topicIssued {
			continue
		}
		conv, turn := e.str("conversation_id"), e.int64("turn")
		if conv == "" || turn < 1 {
			t.Fatalf("line %d: ISSUED without conversation_id/turn: %q %d", i+1, conv, turn)
		}
		if turn != lastTurn[conv]+1 {
			t.Fatalf("line %d: %s turn %d after turn %d", i+1, conv, turn, lastTurn[conv])
		}
		lastTurn[conv] = turn
		if strings.Contains(conv, "__repeat_") {
			repeats++
		}
		if stopped {
			untracked++
		}
	}
	if len(lastTurn) != truth.Agentic.Trajectories {
		t.Errorf("%d conversation instances, truth trajectories %d", len(lastTurn), truth.Agentic.Trajectories)
	}
	if aborted == 0 || aborted != truth.Counts.AgenticSkippedTurns {
		t.Errorf("%d TurnAbortedByPriorFailure lines, truth agentic_skipped_turns %d; want equal and > 0", aborted, truth.Counts.AgenticSkippedTurns)
	}
	if repeats == 0 || untracked != truth.Counts.UntrackedPerfIssued || untracked == 0 {
		t.Errorf("repeat turns %d, untracked turns %d (truth %d); want both > 0 and equal to truth", repeats, untracked, truth.Counts.UntrackedPerfIssued)
	}
}

// TestLongContextPresets_ClearTheGate: every long-context preset lasts ≥ 600 s
// of issue time, and the steady ones plant a plateau that clears the
// min-duration gate (600 s and 5 × p90 latency, truth's Found) — also when
// GenerateCorpus sweeps them to 0.5× and 4× concurrency at the extremes of its
// service rates, as the calibration corpus does.
func TestLongContextPresets_ClearTheGate(t *testing.T) {
	names := LongContextPresets()
	if len(names) < 5 {
		t.Fatalf("LongContextPresets() = %v", names)
	}
	for _, name := range names {
		for _, sw := range []struct{ tokS, mult float64 }{{0, 1}, {corpusMinTokS, 4}, {corpusMaxTokS, 0.5}} {
			spec := presetSpec(t, name, 3)
			if sw.tokS > 0 {
				spec = sweepSpec(spec, sw.tokS, sw.mult)
			}
			_, truth := simulate(t, spec, name)
			span := 0.0
			for _, r := range truth.SimulatedPerSP {
				span += r.IssueSpanS
			}
			if span < 600 {
				t.Errorf("%s (rate %v, ×%v): issue span %.0f s < 600 s", name, sw.tokS, sw.mult, span)
			}
			v := truth.ExpectedVerdict
			if (v.Verdict == "steady" || v.Verdict == "anomaly") && !v.Found {
				t.Errorf("%s (rate %v, ×%v): plateau not found with the gate: %s", name, sw.tokS, sw.mult, v.Reason)
			}
		}
	}
}
