package bench

// Cross-package micro-benchmarks on generated runs: the decoder on a
// synth.GenerateLog log (columnar's own BenchmarkDecode uses a simpler
// hand-written log), the tokenizers through the public Count API, and the
// detector on a decoded run, per configuration. Benchstat-friendly:
//
//	go test -run '^$' -bench . -count 6 ./bench/ | tee new.txt
//	benchstat old.txt new.txt
//
// -short uses a 20 MB log instead of 200 MB.

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

var (
	logOnce sync.Once
	logDir  string
	logSize int64
	logErr  error
)

// benchRun generates the benchmark run once per process (into a directory
// removed by TestMain).
func benchRun(b *testing.B) (string, int64) {
	b.Helper()
	logOnce.Do(func() {
		logDir, logErr = os.MkdirTemp("", "steadysweep-benchlog-")
		if logErr != nil {
			return
		}
		size := int64(200e6)
		if testing.Short() {
			size = 20e6
		}
		logSize, logErr = GenerateRun(logDir, LogSpec(), size)
	})
	if logErr != nil {
		b.Fatal(logErr)
	}
	return logDir, logSize
}

func TestMain(m *testing.M) {
	code := m.Run()
	if perConfigDir != "" {
		os.RemoveAll(perConfigDir)
	}
	if logDir != "" {
		os.RemoveAll(logDir)
	}
	os.Exit(code)
}

// BenchmarkDecodeSynth decodes the generated log without a token counter
// and with the word counter, on one worker and on all cores.
func BenchmarkDecodeSynth(b *testing.B) {
	dir, size := benchRun(b)
	path := filepath.Join(dir, "events.jsonl")
	for _, counter := range []string{"none", "words"} {
		for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(fmt.Sprintf("counter=%s/workers=%d", counter, workers), func(b *testing.B) {
				opts := columnar.DecodeOptions{Name: path, Workers: workers}
				if counter == "words" {
					opts.Counter = tokenizer.Words{}
				}
				b.SetBytes(size)
				b.ReportAllocs()
				var d columnar.Decoded
				cpu0 := CPUTime()
				for b.Loop() {
					f, err := os.Open(path)
					if err != nil {
						b.Fatal(err)
					}
					err = columnar.DecodeReader(context.Background(), f, opts, &d)
					f.Close()
					if err != nil {
						b.Fatal(err)
					}
				}
				if cpu := (CPUTime() - cpu0).Seconds(); cpu > 0 {
					b.ReportMetric(float64(size)*float64(b.N)/cpu/1e6, "MB/cpu-s")
				}
			})
		}
	}
}

// BenchmarkCount counts the tokens of the 3000 shared texts of each
// shared tokenizer through the public API, one call per text
// (../shared/tokenizers; skipped when absent).
func BenchmarkCount(b *testing.B) {
	dir := filepath.Join("..", "..", "shared", "tokenizers")
	if d := os.Getenv("STEADYSWEEP_SHARED"); d != "" {
		dir = filepath.Join(d, "tokenizers")
	}
	if _, err := os.Stat(filepath.Join(dir, "vectors")); err != nil {
		b.Skipf("shared tokenizers absent: %v", err)
	}
	for _, name := range []string{"deepseek_v3", "deepseek_r1_derived", "gptoss", "qwen3", "llama3_1"} {
		texts, tokens, bytes := sharedTexts(b, filepath.Join(dir, "vectors", name+".jsonl.gz"))
		tok, err := tokenizer.Load(filepath.Join(dir, name, "tokenizer.json.gz"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("tok="+name, func(b *testing.B) {
			b.SetBytes(bytes)
			n := 0
			for b.Loop() {
				for _, t := range texts {
					n += tok.Count(t)
				}
			}
			b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
		})
	}
}

func sharedTexts(b *testing.B, path string) (texts []string, tokens, bytes int64) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var v struct {
			Text  string `json:"text"`
			Count int64  `json:"count"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			b.Fatal(err)
		}
		texts = append(texts, v.Text)
		tokens += v.Count
		bytes += int64(len(v.Text))
	}
	if err := sc.Err(); err != nil {
		b.Fatal(err)
	}
	return texts, tokens, bytes
}

// BenchmarkAnalyze runs the detector on the decoded benchmark run (about
// 60 super-passes of 400 samples at 200 MB) under the default and the
// reference presets: a fresh core.Run per iteration (nothing shared), and
// one core.Run shared across iterations (the sweep's path).
func BenchmarkAnalyze(b *testing.B) {
	dir, _ := benchRun(b)
	table := sinkstest.IngestWords(b, dir)
	s := table.Samples()
	info := table.Info
	var err error
	for _, preset := range []string{"default", "reference"} {
		p := presetParams(preset)
		b.Run("preset="+preset+"/from=samples", func(b *testing.B) {
			cpu0 := CPUTime()
			var r *core.Result
			for b.Loop() {
				if r, err = core.NewRun(&s, info).Analyze(p); err != nil {
					b.Fatal(err)
				}
				_ = r.Outcome()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/config")
			b.ReportMetric(float64((CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/config")
			b.ReportMetric(float64(r.NSuperPasses), "super-passes")
		})
		b.Run("preset="+preset+"/from=shared-run", func(b *testing.B) {
			// sweep.DefaultAnalyzer's path: one core.Run per run, its
			// rollups and memos shared across configs (so after the first
			// iteration the memos are warm, as for the later configs of a
			// sweep whose windows repeat).
			shared := core.NewRun(&s, info)
			cpu0 := CPUTime()
			for b.Loop() {
				r, err := shared.Analyze(p)
				if err != nil {
					b.Fatal(err)
				}
				_ = r.Outcome()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/config")
			b.ReportMetric(float64((CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/config")
		})
	}
}

var (
	perConfigOnce sync.Once
	perConfigDir  string
	perConfigErr  error
)

// BenchmarkPerConfig is the per-config target on the sweep path: one
// core.Run of the PerConfigSpec run (60 super-passes of 1000 samples)
// analysed under the 1001 alpha values of AlphaConfigs, per preset; an
// iteration is the whole sweep of one run, the metrics are per parameter
// set. Target: default ≤ PerConfigTargetUs µs of CPU (b.Error above it).
//
//	go test -run '^$' -bench PerConfig -benchtime 3x -cpu 1 ./bench/
func BenchmarkPerConfig(b *testing.B) {
	table := sinkstest.IngestWords(b, perConfigRun(b))
	s := table.Samples()
	for _, preset := range []string{"default", "reference"} {
		base := presetParams(preset)
		cfgs := AlphaConfigs(base, 1001)
		b.Run("preset="+preset, func(b *testing.B) {
			var wall, cpu float64
			var nsp int
			for b.Loop() {
				w, c, n, err := SweepPathCost(&s, table.Info, cfgs)
				if err != nil {
					b.Fatal(err)
				}
				wall, cpu, nsp = wall+w, cpu+c, n
			}
			wall, cpu = wall/float64(b.N), cpu/float64(b.N)
			b.ReportMetric(wall, "µs/config")
			b.ReportMetric(cpu, "cpu-µs/config")
			b.ReportMetric(float64(nsp), "super-passes")
			if preset == "default" && cpu > PerConfigTargetUs {
				b.Errorf("default preset: %.0f µs CPU per config, target ≤ %d", cpu, PerConfigTargetUs)
			}
		})
	}
}

// presetParams is the parameter set of a preset: "reference" the
// reference's, any other our defaults.
func presetParams(preset string) core.Params {
	if preset == "reference" {
		return core.ReferenceParams()
	}
	return core.DefaultParams()
}

// perConfigRun generates the PerConfigSpec run once per process (into a
// directory removed by TestMain).
func perConfigRun(b *testing.B) string {
	b.Helper()
	perConfigOnce.Do(func() {
		perConfigDir, perConfigErr = os.MkdirTemp("", "steadysweep-perconfig-")
		if perConfigErr == nil {
			_, perConfigErr = synth.Generate(perConfigDir, PerConfigSpec())
		}
	})
	if perConfigErr != nil {
		b.Fatal(perConfigErr)
	}
	return perConfigDir
}

// BenchmarkAnalyzeOnce is core's share of a warm `analyze` (a column-cache
// hit): one fresh core.Run of the PerConfigSpec run (60 super-passes of
// 1000 samples, the shape of issue 16's 183 MB log) analysed once, its
// Outcome and its diagnostic tables (what the text and JSON reports
// read), per preset.
//
//	go test -run '^$' -bench AnalyzeOnce -benchtime 20x -cpu 1 ./bench/
func BenchmarkAnalyzeOnce(b *testing.B) {
	table := sinkstest.IngestWords(b, perConfigRun(b))
	s := table.Samples()
	for _, preset := range []string{"default", "reference"} {
		p := presetParams(preset)
		b.Run("preset="+preset, func(b *testing.B) {
			cpu0 := CPUTime()
			for b.Loop() {
				r, err := core.NewRun(&s, table.Info).Analyze(p)
				if err != nil {
					b.Fatal(err)
				}
				_ = r.Outcome()
				if _, err := r.Diagnostics(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/analysis")
			b.ReportMetric(float64((CPUTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/analysis")
		})
	}
}

// BenchmarkSweepPerConfig is the per-config cost through a whole sweep,
// rows included (issue 32's wide-grid target, ≤ SweepRowsTargetUs µs of
// CPU): SweepRowsCost of the PerConfigSpec run (60 super-passes of 1000
// samples) under the 1001 alpha values of AlphaConfigs(default).
//
//	go test -run '^$' -bench SweepPerConfig -benchtime 3x -cpu 1 ./bench/
func BenchmarkSweepPerConfig(b *testing.B) {
	dir := perConfigRun(b)
	cache := b.TempDir()
	all := AlphaConfigs(core.DefaultParams(), 1001)
	var per float64
	for b.Loop() {
		us, err := SweepRowsCost(context.Background(), dir, cache, b.TempDir(), all)
		if err != nil {
			b.Fatal(err)
		}
		per += us
	}
	b.ReportMetric(per/float64(b.N), "cpu-µs/config")
}
