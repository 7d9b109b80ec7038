package synth

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

var runFiles = []string{"events.jsonl", "config.yaml", "run_meta.json", "sample_idx_map.json", "truth.json"}

func TestGenerate_SameSeedSameBytes(t *testing.T) {
	a, _ := generatePreset(t, "clean_ramp", 7)
	b, _ := generatePreset(t, "clean_ramp", 7)
	for _, name := range runFiles {
		da, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		db, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		if !bytes.Equal(da, db) {
			t.Errorf("%s differs between two runs with seed 7", name)
		}
	}
}

func TestGenerate_DifferentSeedDifferentEvents(t *testing.T) {
	a, _ := generatePreset(t, "clean_ramp", 7)
	b, _ := generatePreset(t, "clean_ramp", 8)
	da, errA := os.ReadFile(filepath.Join(a, "events.jsonl"))
	db, errB := os.ReadFile(filepath.Join(b, "events.jsonl"))
	if errA != nil || errB != nil {
		t.Fatalf("read events: %v %v", errA, errB)
	}
	if bytes.Equal(da, db) {
		t.Error("seeds 7 and 8 wrote identical events.jsonl")
	}
}

// TestGenerate_EnvelopeMatchesParity compares the ordered key lists of every
// event type with those of the parity corpus's conc_clean_ramp (upstream wire
// format, event-log.md §1.2), and checks the session framing.
func TestGenerate_EnvelopeMatchesParity(t *testing.T) {
	shared := sharedtest.Dir(t, "parity/runs")
	parity, _ := readEvents(t, filepath.Join(shared, "parity", "runs", "conc_clean_ramp", "events.jsonl"))
	dir, _ := generatePreset(t, "clean_ramp", 1)
	ours, tail := readEvents(t, filepath.Join(dir, "events.jsonl"))
	if len(tail) != 0 {
		t.Fatalf("events.jsonl does not end with a newline: %q", tail)
	}
	want, got := signaturesByType(parity), signaturesByType(ours)
	for typ, sigs := range got {
		if !slices.Equal(sigs, want[typ]) {
			t.Errorf("%s keys:\ngot  %v\nwant %v", typ, sigs, want[typ])
		}
	}
	for typ := range want {
		if _, ok := got[typ]; !ok {
			t.Errorf("event type %s of the parity run is missing", typ)
		}
	}
	types := func(evs []event, idx ...int) []string {
		var out []string
		for _, i := range idx {
			if i < 0 {
				i += len(evs)
			}
			out = append(out, evs[i].str("event_type"))
		}
		return out
	}
	// The parity run has an untracked accuracy phase between STOP and ENDED,
	// so only the opening pair and the last line are compared directly.
	if g, w := types(ours, 0, 1, -1), types(parity, 0, 1, -1); !slices.Equal(g, w) {
		t.Errorf("framing events: got %v want %v", g, w)
	}
	if g := types(ours, -2); g[0] != topicStopTrack {
		t.Errorf("line before session.ended is %s, want %s", g[0], topicStopTrack)
	}
}

// TestGenerate_SampleEventOrder checks each sample's lines come as
// issued → recv_first → complete, with non-decreasing timestamps.
func TestGenerate_SampleEventOrder(t *testing.T) {
	dir, _ := generatePreset(t, "clean_ramp", 1)
	events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
	seq := map[string][]string{}
	stamps := map[string][]int64{}
	for _, e := range events {
		u := e.str("sample_uuid")
		if u == "" {
			continue
		}
		seq[u] = append(seq[u], e.str("event_type"))
		stamps[u] = append(stamps[u], e.int64("timestamp_ns"))
	}
	want := []string{topicIssued, topicRecvFirst, topicComplete}
	for u, s := range seq {
		if !slices.Equal(s, want) {
			t.Fatalf("sample %s events %v, want %v", u, s, want)
		}
		if !slices.IsSorted(stamps[u]) {
			t.Fatalf("sample %s timestamps %v not ordered", u, stamps[u])
		}
	}
	if len(seq) != 2700 {
		t.Errorf("clean_ramp wrote %d samples, want 18 passes × 150 = 2700", len(seq))
	}
}

// TestPlateauMedianEqualsPlanted recomputes, from events.jsonl alone, each
// super-pass's median TPOT = (complete − recv_first) / words after the first
// chunk, and checks it against truth.json's planted level on the super-passes
// truth lists as exact-median, for every closed-loop preset with a plateau.
func TestPlateauMedianEqualsPlanted(t *testing.T) {
	for _, tc := range []struct {
		preset   string
		minExact int
	}{
		{"clean_ramp", 12}, {"long_ramp", 12}, {"late_staircase", 20}, {"two_staircases", 20},
		{"hairball_tail", 5}, {"noisy", 12}, {"truncated", 10},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			dir, truth := generatePreset(t, tc.preset, 3)
			events, _ := readEvents(t, filepath.Join(dir, "events.jsonl"))
			issueOrder, tpot := measuredTPOT(events)
			n := truth.DatasetSize
			exact := truth.Planted.ExactMedianSPs
			if len(exact) < tc.minExact {
				t.Fatalf("only %d exact-median super-passes planted (%v), want >= %d", len(exact), exact, tc.minExact)
			}
			for _, sp := range exact {
				var vals []float64
				for _, u := range issueOrder[sp*n : (sp+1)*n] {
					vals = append(vals, tpot[u])
				}
				slices.Sort(vals)
				gotMs := median(vals) / 1e6
				wantMs := truth.Planted.TPOTLevelMsPerSP[sp]
				if rel := math.Abs(gotMs/wantMs - 1); rel > 0.001 {
					t.Errorf("super-pass %d: median TPOT %.6f ms, planted %.6f ms (off by %.4f%%)", sp, gotMs, wantMs, 100*rel)
				}
			}
		})
	}
}

// TestCleanRamp_WarmupRampIsVisible: the first super-pass decodes at a partly
// filled batch, so its median TPOT is below the plateau level by more than the
// jitter could explain (h0 = 0.6 at an empty batch).
func TestCleanRamp_WarmupRampIsVisible(t *testing.T) {
	_, truth := generatePreset(t, "clean_ramp", 3)
	if first, plateau := truth.SimulatedPerSP[0].TPOTMedianMs, truth.Planted.TPOTBaseMs; first > 0.95*plateau {
		t.Errorf("super-pass 0 median TPOT %.3f ms is within 5%% of the plateau %.3f ms: no warmup ramp", first, plateau)
	}
	if w := truth.Planted.WarmupEndSP; w == nil || *w < 0.5 || *w > 3 {
		t.Errorf("warmup_end_sp = %v, want the batch full after 0.5–3 super-passes (RampSuperPasses 1.5)", w)
	}
}

func TestGenerate_RunMetaAndIdxMap(t *testing.T) {
	dir, truth := generatePreset(t, "clean_ramp", 1)
	meta, err := os.ReadFile(filepath.Join(dir, "run_meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"dataset_size\": 150\n}"; string(meta) != want {
		t.Errorf("run_meta.json = %q, want %q", meta, want)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "sample_idx_map.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]int
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("sample_idx_map.json: %v", err)
	}
	if len(m["performance"]) != truth.Counts.TrackedIssuedInFile {
		t.Errorf("sample_idx_map has %d entries, want %d", len(m["performance"]), truth.Counts.TrackedIssuedInFile)
	}
	seen := make([]int, truth.DatasetSize)
	for _, idx := range m["performance"] {
		seen[idx]++
	}
	for idx, c := range seen {
		if c != 18 {
			t.Fatalf("dataset index %d issued %d times, want once per pass (18)", idx, c)
		}
	}
}

// Generate writes each file through internal/atomicfile: a symbolic link
// planted at a run file's name is refused, never written through (the old
// os.Create truncated its target), and the run files it writes are 0644
// under the umask.
func TestGenerate_NeverThroughALink(t *testing.T) {
	for _, name := range []string{"events.jsonl", "config.yaml", "truth.json"} {
		dir := t.TempDir()
		victim := filepath.Join(t.TempDir(), "victim")
		if err := os.WriteFile(victim, []byte("not yours"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		spec := presetSpec(t, "clean_ramp", 7)
		if _, err := Generate(dir, spec); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("%s a link: Generate error %v, want a refusal naming the link", name, err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "not yours" {
			t.Errorf("%s a link: its target was written (%d bytes)", name, len(b))
		}
	}
	dir, _ := generatePreset(t, "clean_ramp", 7)
	umask := syscall.Umask(0)
	syscall.Umask(umask)
	for _, name := range runFiles {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644&^os.FileMode(umask) {
			t.Errorf("%s: mode %v, want 0644 under umask %o", name, st.Mode().Perm(), umask)
		}
	}
}
