package core_test

// The upstream test suite's event-level cases
// (mlcommons/endpoints tests/unit/metrics/test_steady_state_diagnostics.py
// @ 40b78bfe), run end to end through our stack: the same event lines are
// written to a run directory, decoded by columnar with the word counter,
// rolled up and analysed by core. Expected values are the upstream
// assertions.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// ev is the upstream _ev helper (turn and conversation optional).
func ev(et string, ts any, uuid string, data any, extra ...any) string {
	m := map[string]any{"event_type": et, "timestamp_ns": ts, "sample_uuid": uuid, "data": data}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func out(chunks ...any) []any { return []any{"TextModelOutput", chunks} }

// writeRun writes the lines as a run directory's events.jsonl.
func writeRun(t *testing.T, lines []string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func rollupOf(t *testing.T, lines []string, S int) []core.SuperPass {
	t.Helper()
	s, _, err := decodeRun(writeRun(t, lines))
	if err != nil {
		t.Fatal(err)
	}
	return core.Rollup(s, S)
}

const (
	start = "session.start_performance_tracking"
	stop  = "session.stop_performance_tracking"
	iss   = "sample.issued"
	first = "sample.recv_first"
	done  = "sample.complete"
)

func sortedCopy(xs []float64) []float64 { return slices.Sorted(slices.Values(xs)) }

func TestUpstreamSuperPassSeries(t *testing.T) {
	t.Run("buckets by issue order", func(t *testing.T) {
		sps := rollupOf(t, []string{
			ev(start, 0, "", nil),
			ev(iss, 1000, "A", nil), ev(iss, 1100, "B", nil),
			ev(first, 1300, "B", nil), ev(first, 1500, "A", nil),
			ev(done, 2100, "B", out("x ", "y y y")), ev(done, 3000, "A", out("a ", "b b")),
			ev(iss, 1200, "C", nil), ev(first, 1400, "C", nil), ev(done, 2000, "C", out("p ", "q")),
			ev(stop, 4000, "", nil),
		}, 2)
		if len(sps) != 2 || sps[0].NIssued != 2 || sps[1].NIssued != 1 {
			t.Fatalf("super-passes %+v", sps)
		}
		if got := sortedCopy(sps[0].TTFT); !slices.Equal(got, []float64{200, 500}) {
			t.Errorf("ttft %v", got)
		}
		if got := sortedCopy(sps[0].TPOT); len(got) != 2 || got[0] != 800.0/3 || got[1] != 750 {
			t.Errorf("tpot %v, want [266.67 750]", got)
		}
		if sps[0].OutTokens != 5 || !slices.Equal(sps[1].TTFT, []float64{200}) {
			t.Errorf("out tokens %d, sp1 ttft %v", sps[0].OutTokens, sps[1].TTFT)
		}
	})
	t.Run("e2e latency", func(t *testing.T) {
		sps := rollupOf(t, []string{ev(start, 0, "", nil), ev(iss, 1000, "A", nil), ev(first, 1500, "A", nil),
			ev(done, 3000, "A", out("a ", "b b")), ev(stop, 4000, "", nil)}, 4)
		if !slices.Equal(sps[0].Latency, []float64{2000}) {
			t.Errorf("latency %v", sps[0].Latency)
		}
	})
	t.Run("warm turn excludes cold first turn", func(t *testing.T) {
		sps := rollupOf(t, []string{ev(start, 0, "", nil),
			ev(iss, 1000, "A", nil, "turn", 1), ev(first, 1200, "A", nil, "turn", 1),
			ev(done, 3000, "A", out("a ", "b"), "turn", 1),
			ev(iss, 1100, "B", nil, "turn", 2), ev(first, 1150, "B", nil, "turn", 2),
			ev(done, 2000, "B", out("c ", "d"), "turn", 2),
			ev(stop, 4000, "", nil)}, 4)
		if !slices.Equal(sortedCopy(sps[0].TTFT), []float64{50, 200}) || !slices.Equal(sps[0].TTFTWarm, []float64{50}) {
			t.Errorf("ttft %v warm %v", sps[0].TTFT, sps[0].TTFTWarm)
		}
	})
	t.Run("ignores events outside tracking", func(t *testing.T) {
		sps := rollupOf(t, []string{ev(iss, 500, "PRE", nil), ev(start, 900, "", nil), ev(iss, 1000, "A", nil),
			ev(first, 1500, "A", nil), ev(done, 3000, "A", out("a ", "b")), ev(stop, 4000, "", nil)}, 4)
		if len(sps) != 1 || sps[0].NIssued != 1 {
			t.Errorf("super-passes %+v", sps)
		}
	})
	t.Run("retried sample counts ttft once", func(t *testing.T) {
		sps := rollupOf(t, []string{ev(start, 0, "", nil), ev(iss, 1000, "A", nil), ev(first, 1500, "A", nil),
			ev(iss, 2000, "A", nil), ev(first, 2600, "A", nil), ev(done, 4000, "A", out("a ", "b b")),
			ev(stop, 5000, "", nil)}, 4)
		if !slices.Equal(sps[0].TTFT, []float64{500}) {
			t.Errorf("ttft %v", sps[0].TTFT)
		}
	})
	t.Run("valid line missing timestamp is skipped", func(t *testing.T) {
		partial := `{"event_type": "sample.issued", "sample_uuid": "BAD"}`
		sps := rollupOf(t, []string{ev(start, 0, "", nil), partial, ev(iss, 1000, "A", nil),
			ev(first, 1500, "A", nil), ev(done, 3000, "A", out("a ", "b")), ev(stop, 4000, "", nil)}, 4)
		n := 0
		for _, sp := range sps {
			n += sp.NIssued
		}
		if n != 1 {
			t.Errorf("%d samples, want 1", n)
		}
	})
	t.Run("tracks timestamps", func(t *testing.T) {
		sps := rollupOf(t, []string{ev(start, 0, "", nil),
			ev(iss, 1000, "A", nil), ev(first, 1500, "A", nil), ev(done, 3000, "A", out("a ", "b b")),
			ev(iss, 1100, "B", nil), ev(first, 1400, "B", nil), ev(done, 2500, "B", out("c ", "d")),
			ev(stop, 4000, "", nil)}, 4)
		if sps[0].FirstIssueNs != 1000 || sps[0].LastEventNs != 3000 {
			t.Errorf("first issue %d last event %d", sps[0].FirstIssueNs, sps[0].LastEventNs)
		}
	})
	t.Run("text after first chunk", func(t *testing.T) {
		// Each sample: first token at 1000, completion at 7000 → TPOT = 6000/words.
		cases := []struct {
			data any
			want []float64 // TPOT list
		}{
			{out("hello ", "world ", "again"), []float64{3000}},                                              // "world again"
			{[]any{"TextModelOutput", []any{"out1 ", "out2"}, []any{"think1 ", "think2 "}}, []float64{2000}}, // "think2 out1 out2"
			{[]any{"TextModelOutput", "the whole answer"}, nil},                                              // first chunk only
			{[]any{"TextModelOutput", "the whole answer", []any{}}, nil},                                     // empty reasoning
		}
		for i, c := range cases {
			sps := rollupOf(t, []string{ev(start, 0, "", nil), ev(iss, 0, "A", nil), ev(first, 1000, "A", nil),
				ev(done, 7000, "A", c.data), ev(stop, 9000, "", nil)}, 1)
			if !slices.Equal(sps[0].TPOT, c.want) {
				t.Errorf("case %d: tpot %v, want %v", i, sps[0].TPOT, c.want)
			}
		}
	})
}

// syntheticRun is the upstream _synthetic_events: n samples, one per
// super-pass (S = 1), issue every 10 µs, TTFT ttft(i), 1 µs decode of
// "a " + "b b" (2 tokens).
func syntheticRun(t *testing.T, n int, ttft func(i int) int64) (*core.Samples, core.RunInfo) {
	t.Helper()
	lines := []string{ev(start, 0, "", nil)}
	ts := int64(1000)
	for i := range n {
		uuid := "s" + string(rune('a'+i))
		recv := ts + ttft(i)
		lines = append(lines, ev(iss, ts, uuid, nil), ev(first, recv, uuid, nil), ev(done, recv+1000, uuid, out("a ", "b b")))
		ts += 10_000
	}
	lines = append(lines, ev(stop, ts, "", nil))
	s, info, err := decodeRun(writeRun(t, lines))
	if err != nil {
		t.Fatal(err)
	}
	info.DatasetSize = 1
	return s, info
}

func TestUpstreamRun(t *testing.T) {
	s, info := syntheticRun(t, 8, func(i int) int64 { return 100 + 20*int64(i) })
	p := core.ReferenceParams()
	p.WindowSizes = []int{4}
	p.WarmupMode, p.WarmupFixed = "fixed", 1
	r, err := core.NewRun(s, info).Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.NSuperPasses != 8 || r.NPostWarmup != 7 || len(r.Trajectories()[0]) == 0 {
		t.Errorf("n %d post %d", r.NSuperPasses, r.NPostWarmup)
	}
	d, err := r.Diagnostics()
	if err != nil || len(d) != 1 || d[0].W != 4 {
		t.Fatalf("diagnostics %+v", d)
	}
	var windows [][2]int
	for _, rc := range d[0].Drift[0].Rolling { // ttft_p50
		windows = append(windows, [2]int{rc.Lo, rc.Hi})
	}
	if !slices.Equal(windows, [][2]int{{0, 4}, {1, 5}, {2, 6}, {3, 7}}) {
		t.Errorf("rolling windows %v", windows)
	}
	if !d[0].Cov[2].Gated || d[0].Cov[0].Gated || d[0].Cov[4].Gated { // tpot_p50, ttft_p50, ttft_p99
		t.Error("gated flags")
	}
	js := string(refJSON(t, r))
	for _, key := range []string{`"0.03": `, `"0.05": `, `"0.08": `, `"steady_state": {`, `"anomaly": {`} {
		if !strings.Contains(js, key) {
			t.Errorf("JSON lacks %s", key)
		}
	}
	text := refText(t, r)
	for _, want := range []string{"window size 4", "CoV steadiness", "drift (whole-run", "ttft_p50"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	// run_auto_warmup_resolves_to_int
	s, info = syntheticRun(t, 8, func(int) int64 { return 100 })
	r, err = core.NewRun(s, info).Analyze(core.ReferenceParams())
	if err != nil || r.WarmupMode != "auto" || r.Warmup < 1 {
		t.Errorf("auto warmup %d [%s] %v", r.Warmup, r.WarmupMode, err)
	}
}

// TestUpstreamNATL is upstream test_build_trajectory_natl through the
// decoder: c1 two 1 s turns with 2 + 3 words (NATL 2.5), c2 one 2 s turn
// with 4 words (NATL 2.0).
func TestUpstreamNATL(t *testing.T) {
	conv := func(et string, ts int64, uuid, c string, turn int, data any) string {
		return ev(et, ts, uuid, data, "conversation_id", c, "turn", turn)
	}
	lines := []string{ev(start, 0, "", nil),
		conv(iss, 0, "a", "c1", 1, nil), conv(done, 1_000_000_000, "a", "c1", 1, out("a ", "b")),
		conv(iss, 2_000_000_000, "b", "c1", 2, nil), conv(done, 3_000_000_000, "b", "c1", 2, out("c ", "d ", "e")),
		conv(iss, 0, "d", "c2", 1, nil), conv(done, 2_000_000_000, "d", "c2", 1, out("w ", "x ", "y ", "z")),
		ev(stop, 9_000_000_000, "", nil)}
	s, _, err := decodeRun(writeRun(t, lines))
	if err != nil {
		t.Fatal(err)
	}
	pairs := core.NATLPairs(s)
	if len(pairs) != 2 || pairs[0] != (core.NATLPair{EndNs: 2_000_000_000, NATL: 2.0}) ||
		pairs[1] != (core.NATLPair{EndNs: 3_000_000_000, NATL: 2.5}) {
		t.Errorf("pairs %+v", pairs)
	}
}
