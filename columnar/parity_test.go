package columnar

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
)

// spRollup is one super-pass rolled up from Samples the way the
// reference does (detector spec §4).
type spRollup struct {
	nIssued                                int
	outTokens                              int64
	firstIssue, lastIssue, lastEvent       int64
	ttft, ttftWarm, tpot, latency          []float64
	ttftSeq, tpotSeq, latencySeq, ttftWSeq []int64
}

// rollup buckets samples into super-passes of size S: sample k goes to
// super-pass k/S.
func rollup(s *core.Samples, S int) []spRollup {
	var out []spRollup
	for k := 0; k < s.Len(); k++ {
		sp := k / S
		if sp == len(out) {
			out = append(out, spRollup{firstIssue: s.IssueNs[k], lastIssue: -1, lastEvent: -1})
		}
		r := &out[sp]
		r.nIssued++
		r.lastIssue = max(r.lastIssue, s.LastIssueNs[k])
		r.lastEvent = max(r.lastEvent, s.LastEventNs[k])
		if s.HasFirstToken[k] {
			r.ttft = append(r.ttft, float64(s.TTFTNs[k]))
			if s.WarmTTFT[k] {
				r.ttftWarm = append(r.ttftWarm, float64(s.TTFTNs[k]))
			}
		}
		if s.HasComplete[k] {
			r.latency = append(r.latency, float64(s.LatencyNs[k]))
			if s.HasFirstToken[k] && s.OutTokens[k] > 0 {
				r.tpot = append(r.tpot, float64(s.CompleteNs[k]-s.FirstTokenNs[k])/float64(s.OutTokens[k]))
				r.outTokens += s.OutTokens[k]
			}
		}
	}
	return out
}

// percentileLower is detector spec §5.4 over an unsorted list.
func percentileLower(vals []float64, p float64) (float64, bool) {
	if len(vals) == 0 {
		return 0, false
	}
	s := slices.Clone(vals)
	sort.Float64s(s)
	return s[int(p*float64(len(s)-1))], true
}

type expectedSP struct {
	I            int      `json:"i"`
	NIssued      int      `json:"n_issued"`
	OutTokens    int64    `json:"out_tokens"`
	FirstIssueNs int64    `json:"first_issue_ns"`
	LastIssueNs  int64    `json:"last_issue_ns"`
	LastEventNs  int64    `json:"last_event_ns"`
	TTFTP50      *float64 `json:"ttft_p50"`
	TTFTP90      *float64 `json:"ttft_p90"`
	TPOTP50      *float64 `json:"tpot_p50"`
	TPOTP90      *float64 `json:"tpot_p90"`
}

type expectedRun struct {
	NSuperPasses  int                  `json:"n_super_passes"`
	SuperpassSize int                  `json:"superpass_size"`
	Warmup        int                  `json:"warmup"`
	NPostWarmup   int                  `json:"n_post_warmup"`
	Trajectories  map[string][]float64 `json:"trajectories"`
	PerSuperPass  []expectedSP         `json:"per_super_pass"`
}

// metricSource maps a trajectory key to its list and percentile (§6).
var metricSource = map[string]struct {
	list func(*spRollup) []float64
	p    float64
}{
	"ttft_p50":      {func(r *spRollup) []float64 { return r.ttft }, 0.50},
	"ttft_p90":      {func(r *spRollup) []float64 { return r.ttft }, 0.90},
	"tpot_p50":      {func(r *spRollup) []float64 { return r.tpot }, 0.50},
	"tpot_p90":      {func(r *spRollup) []float64 { return r.tpot }, 0.90},
	"ttft_p99":      {func(r *spRollup) []float64 { return r.ttft }, 0.99},
	"tpot_p99":      {func(r *spRollup) []float64 { return r.tpot }, 0.99},
	"latency_p50":   {func(r *spRollup) []float64 { return r.latency }, 0.50},
	"latency_p90":   {func(r *spRollup) []float64 { return r.latency }, 0.90},
	"ttft_warm_p50": {func(r *spRollup) []float64 { return r.ttftWarm }, 0.50},
	"ttft_warm_p90": {func(r *spRollup) []float64 { return r.ttftWarm }, 0.90},
}

func decodeRunFile(t testing.TB, run *contract.Run, workers int) *contract.Decoded {
	t.Helper()
	f, err := os.Open(run.EventsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d contract.Decoded
	err = endpoints.DecodeReader(context.Background(), f, endpoints.DecodeOptions{Name: run.EventsPath, Counter: tokenizer.Words{}, Workers: workers, BlockSize: 64 << 10}, &d)
	if err != nil {
		t.Fatal(err)
	}
	return &d
}

// TestParityPerSuperPass checks, on every run of the shared parity corpus,
// that the decoded samples rolled up into super-passes reproduce the
// reference's per_super_pass block and all ten trajectories
// (../shared/parity/expected/NAME.json).
func TestParityPerSuperPass(t *testing.T) {
	shared := sharedDir(t)
	runs, err := os.ReadDir(filepath.Join(shared, "parity", "runs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) == 0 {
		t.Fatal("no parity runs")
	}
	for _, e := range runs {
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			run, err := ResolveRun(context.Background(), filepath.Join(shared, "parity", "runs", name))
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(filepath.Join(shared, "parity", "expected", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var want expectedRun
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			S := run.Info.DatasetSize
			if S != want.SuperpassSize {
				t.Fatalf("dataset size %d (from %s), want superpass_size %d", S, run.Info.DatasetSizeSource, want.SuperpassSize)
			}
			var truth struct {
				Counts map[string]int `json:"counts"`
			}
			if raw, err := os.ReadFile(filepath.Join(shared, "parity", "runs", name, "truth.json")); err == nil {
				if err := json.Unmarshal(raw, &truth); err != nil {
					t.Fatal(err)
				}
			}
			for _, workers := range []int{1, 3} {
				// One worker: DecodeReader's columns; three: the whole
				// Ingest → Arrow → Table.Samples path.
				var samples core.Samples
				var sum contract.Summary
				if workers == 1 {
					d := decodeRunFile(t, run, workers)
					samples, sum = d.Samples, d.Summary
				} else {
					tab, err := Ingest(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}, Workers: workers})
					if err != nil {
						t.Fatal(err)
					}
					samples, sum = tab.Samples(), tab.Summary
				}
				// Tallies against the generator's planted counts (truth.json).
				for _, c := range []struct {
					key string
					got int
				}{
					{"tracked_issued_in_file", sum.Samples}, {"duplicate_issued", sum.Retries},
					{"failed_tracked", sum.Failed}, {"tracked_without_complete", sum.Pending}, {"lines", int(sum.Lines)},
				} {
					if want, ok := truth.Counts[c.key]; ok && c.got != want {
						t.Errorf("workers=%d: %s = %d, truth.json says %d", workers, c.key, c.got, want)
					}
				}
				series := rollup(&samples, S)
				if len(series) != want.NSuperPasses {
					t.Fatalf("workers=%d: %d super-passes, want %d", workers, len(series), want.NSuperPasses)
				}
				post := series[min(want.Warmup, len(series)):]
				if len(post) != len(want.PerSuperPass) {
					t.Fatalf("workers=%d: %d post-warmup super-passes, want %d", workers, len(post), len(want.PerSuperPass))
				}
				for i, w := range want.PerSuperPass {
					g := &post[i]
					if w.I != i || g.nIssued != w.NIssued || g.outTokens != w.OutTokens || g.firstIssue != w.FirstIssueNs ||
						g.lastIssue != w.LastIssueNs || g.lastEvent != w.LastEventNs {
						t.Errorf("workers=%d sp %d: got n_issued=%d out_tokens=%d first=%d last_issue=%d last_event=%d\nwant %+v",
							workers, i, g.nIssued, g.outTokens, g.firstIssue, g.lastIssue, g.lastEvent, w)
					}
					for _, c := range []struct {
						key  string
						want *float64
					}{{"ttft_p50", w.TTFTP50}, {"ttft_p90", w.TTFTP90}, {"tpot_p50", w.TPOTP50}, {"tpot_p90", w.TPOTP90}} {
						src := metricSource[c.key]
						got, ok := percentileLower(src.list(g), src.p)
						if ok != (c.want != nil) || ok && got != *c.want {
							t.Errorf("workers=%d sp %d %s: got %v (present %v), want %v", workers, i, c.key, got, ok, c.want)
						}
					}
				}
				if len(want.Trajectories) != len(metricSource) {
					t.Errorf("expected file has %d trajectories, test knows %d", len(want.Trajectories), len(metricSource))
				}
				for key, wantTraj := range want.Trajectories {
					src, ok := metricSource[key]
					if !ok {
						t.Errorf("unknown trajectory %q", key)
						continue
					}
					var got []float64
					for i := range post {
						if v, ok := percentileLower(src.list(&post[i]), src.p); ok {
							got = append(got, v)
						}
					}
					if !slices.Equal(got, wantTraj) {
						t.Errorf("workers=%d trajectory %s:\ngot  %v\nwant %v", workers, key, got, wantTraj)
					}
				}
			}
		})
	}
}

// TestParityNATL checks the agentic run's full-output token counts
// through the reference's NATL distribution
// (../shared/parity/expected/agentic_tools.cli.json, detector spec §13).
func TestParityNATL(t *testing.T) {
	shared := sharedDir(t)
	run, err := ResolveRun(context.Background(), filepath.Join(shared, "parity", "runs", "agentic_tools"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(shared, "parity", "expected", "agentic_tools.cli.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		NTrajectories int                `json:"n_trajectories"`
		Distribution  map[string]float64 `json:"distribution"`
		SPMedian      []float64          `json:"sp_median"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	d := decodeRunFile(t, run, 2)
	s := &d.Samples
	// Completions in file order.
	var order []int
	for i := 0; i < s.Len(); i++ {
		if s.HasComplete[i] {
			order = append(order, i)
		}
	}
	sort.Slice(order, func(a, b int) bool { return s.CompleteSeq[order[a]] < s.CompleteSeq[order[b]] })
	type conv struct {
		lat    float64
		tokens int64
		end    int64
		first  int
	}
	convs := map[string]*conv{}
	var names []string
	for _, i := range order {
		c := convs[s.ConversationID[i]]
		if c == nil {
			c = &conv{first: len(names)}
			convs[s.ConversationID[i]] = c
			names = append(names, s.ConversationID[i])
		}
		c.lat += float64(s.LatencyNs[i]) / 1e9
		c.end = max(c.end, s.CompleteNs[i])
		if s.FullTokens[i] > 0 {
			c.tokens += s.FullTokens[i]
		}
	}
	type pair struct {
		end  int64
		natl float64
	}
	var pairs []pair
	for _, n := range names {
		c := convs[n]
		if c.lat > 0 && c.tokens > 0 {
			pairs = append(pairs, pair{c.end, float64(c.tokens) / c.lat})
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].end < pairs[b].end })
	if len(pairs) != want.NTrajectories {
		t.Fatalf("n_trajectories %d, want %d", len(pairs), want.NTrajectories)
	}
	natl := make([]float64, len(pairs))
	for i, p := range pairs {
		natl[i] = p.natl
	}
	for key, p := range map[string]float64{"p10": 0.10, "p50": 0.50, "p90": 0.90, "p99": 0.99} {
		got, _ := percentileLower(natl, p)
		if got != want.Distribution[key] {
			t.Errorf("NATL %s = %v, want %v", key, got, want.Distribution[key])
		}
	}
	var med []float64
	for i := 0; i < len(natl); i += 32 {
		chunk := slices.Clone(natl[i:min(i+32, len(natl))])
		if len(chunk) < 16 {
			continue
		}
		sort.Float64s(chunk)
		m := chunk[len(chunk)/2]
		if len(chunk)%2 == 0 {
			m = (chunk[len(chunk)/2-1] + chunk[len(chunk)/2]) / 2
		}
		med = append(med, m)
	}
	if !slices.EqualFunc(med, want.SPMedian, func(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-12*math.Abs(b) }) {
		t.Errorf("sp_median\ngot  %v\nwant %v", med, want.SPMedian)
	}
}
