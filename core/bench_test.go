package core

// Run with: go test -run '^$' -bench BenchmarkAnalyzeRollups -cpu 1 ./core/
// (µs/config is wall time per analysis, cpu-µs/config the process CPU
// time per analysis, which is robust to a shared, loaded machine).

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time; on a shared machine it
// measures the work better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// syntheticSamples is a closed-loop-like run: nsp super-passes of S
// samples, TTFT ≈ 200 ms, TPOT ≈ 40 ms with ±10 % jitter, 50–150 tokens,
// the first three super-passes ramping (0.6, 0.75, 0.9), 16 in flight.
func syntheticSamples(nsp, S int) *Samples {
	rng := rand.New(rand.NewPCG(1, 2))
	n := nsp * S
	s := &Samples{}
	t := int64(0)
	seq := int64(0)
	for k := range n {
		ramp := 1.0
		switch k / S {
		case 0:
			ramp = 0.6
		case 1:
			ramp = 0.75
		case 2:
			ramp = 0.9
		}
		jit := func() float64 { return 0.9 + 0.2*rng.Float64() }
		issue := t
		ttft := int64(200e6 * jit())
		tokens := int64(50 + rng.IntN(101))
		tpot := 40e6 * ramp * jit()
		complete := issue + ttft + int64(tpot*float64(tokens))
		t += (complete - issue) / 16
		s.IssueNs = append(s.IssueNs, issue)
		s.LastIssueNs = append(s.LastIssueNs, issue)
		s.LastEventNs = append(s.LastEventNs, complete)
		s.HasFirstToken = append(s.HasFirstToken, true)
		s.FirstTokenNs = append(s.FirstTokenNs, issue+ttft)
		s.TTFTNs = append(s.TTFTNs, ttft)
		s.WarmTTFT = append(s.WarmTTFT, true)
		s.FirstTokenSeq = append(s.FirstTokenSeq, seq+1)
		s.HasComplete = append(s.HasComplete, true)
		s.CompleteNs = append(s.CompleteNs, complete)
		s.LatencyNs = append(s.LatencyNs, complete-issue)
		s.CompleteSeq = append(s.CompleteSeq, seq+2)
		s.OutTokens = append(s.OutTokens, tokens)
		seq += 3
	}
	return s
}

// BenchmarkAnalyzeRollups measures one analysis of a 60-super-pass run's
// rollups (150 samples each) with the reference defaults, the unit of
// work of a parameter sweep.
func BenchmarkAnalyzeRollups(b *testing.B) {
	sps := Rollup(syntheticSamples(60, 150), 150)
	info := RunInfo{DatasetSize: 150}
	p := ReferenceParams()
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := analyzeRollups(sps, info, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/config")
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/config")
}

// BenchmarkDiagnostics measures the diagnostic tables (§9), which
// AnalyzeRollups leaves to the first call of Result.Diagnostics (the
// reference JSON and text need them; the headline does not).
func BenchmarkDiagnostics(b *testing.B) {
	sps := Rollup(syntheticSamples(60, 150), 150)
	r, err := analyzeRollups(sps, RunInfo{DatasetSize: 150}, ReferenceParams())
	if err != nil {
		b.Fatal(err)
	}
	cpu0 := cpuTime()
	for b.Loop() {
		traj := r.Trajectories()
		diagnosticTables(&traj, []int{4, 6, 8}, []float64{0.03, 0.05, 0.08}, 4, 0.05, nil)
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}

// BenchmarkRollup measures building the rollups of the same run.
func BenchmarkRollup(b *testing.B) {
	s := syntheticSamples(60, 150)
	b.ReportAllocs()
	for b.Loop() {
		Rollup(s, 150)
	}
}

func TestSyntheticBenchmarkRunShape(t *testing.T) {
	sps := Rollup(syntheticSamples(60, 150), 150)
	r, err := analyzeRollups(sps, RunInfo{DatasetSize: 150}, ReferenceParams())
	if err != nil {
		t.Fatal(err)
	}
	// The benchmark must exercise the whole pipeline: a found window over
	// most of the run (the ramp is three super-passes long).
	if r.NSuperPasses != 60 || r.Warmup < 2 || !r.Steady.Found || r.Steady.Window.NSuperPasses < 40 {
		t.Errorf("synthetic run: %d sps, warmup %d, found %v window %+v",
			r.NSuperPasses, r.Warmup, r.Steady.Found, r.Steady.Window)
	}
}

// BenchmarkStreamedShape measures the analysis part of a warm analyze of
// the 185 MB streamed log's shape (issue 32: 53 super-passes of 1000
// samples, reference params): the run's rollup, the analysis and the
// diagnostic tables, on a fresh Run each time as the command does. The
// rollup alone is the /rollup case.
func BenchmarkStreamedShape(b *testing.B) {
	s := syntheticSamples(53, 1000)
	p := ReferenceParams()
	p.SuperpassSize = 1000
	b.Run("rollup", func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			NewRun(s, RunInfo{}).rollup(1000)
		}
		b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
	})
	b.Run("analyze", func(b *testing.B) {
		b.ReportAllocs()
		cpu0 := cpuTime()
		for b.Loop() {
			r, err := NewRun(s, RunInfo{}).Analyze(p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Diagnostics(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
	})
}
