package tokenizer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// BenchmarkEncode encodes the 3000 shared texts (3.17 MB) one call per
// text on one goroutine, the setting of the "single" column of HF's Rust
// figures in shared/tokenizers/README.md (1.44–1.89 MB/s, 0.51–0.62
// Mtok/s). "warm" keeps the BPE cache between passes, as HF's best-of-3
// after a warm-up does; "cold" empties it before every pass.
//
//	go test -run '^$' -bench '^BenchmarkEncode' -cpu 1 -count 3 ./columnar/tokenizer
func BenchmarkEncode(b *testing.B) {
	dir := sharedDir(b)
	for _, name := range sharedTokenizerNames {
		tok, vectors, bytes, tokens := benchVectors(b, dir, name)
		for _, cache := range []string{"warm", "cold"} {
			b.Run("tok="+name+"/cache="+cache, func(b *testing.B) {
				b.SetBytes(int64(bytes))
				b.ReportAllocs()
				var ids []uint32
				runtime.GC() // collect the garbage of loading outside the measurement
				cpuStart := processCPUSeconds()
				for b.Loop() {
					if cache == "cold" {
						b.StopTimer()
						tok.model.cache.slots = make([]cacheSlot, cacheSlots)
						b.StartTimer()
					}
					for _, v := range vectors {
						ids = tok.AppendEncode(ids[:0], v.Text)
					}
				}
				b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mtok/s")
				// The machine is shared; CPU time is steadier than wall time.
				if cpu := processCPUSeconds() - cpuStart; cpu > 0 {
					b.ReportMetric(float64(bytes)*float64(b.N)/cpu/1e6, "MB/cpu-s")
				}
			})
		}
	}
}

// processCPUSeconds is the user+system CPU time of this process; run with
// -cpu 1 so that only the benchmark goroutine (plus GC) is counted.
func processCPUSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// BenchmarkLoad reads, gunzips and parses each shared tokenizer.json.gz,
// the "load" column of HF's figures (0.37–1.16 s).
//
//	go test -run '^$' -bench '^BenchmarkLoad' -cpu 1 ./columnar/tokenizer
func BenchmarkLoad(b *testing.B) {
	dir := sharedDir(b)
	for _, name := range []string{"deepseek_v3", "gptoss", "qwen3", "llama3_1"} {
		b.Run("tok="+name, func(b *testing.B) {
			cpu := processCPUSeconds()
			for b.Loop() {
				if _, err := Load(filepath.Join(dir, name, "tokenizer.json.gz")); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N)*1e3, "cpu-ms/op")
		})
	}
}

// BenchmarkLoadCompiled is BenchmarkLoad through a compiled cache filled
// beforehand (LoadCached's hit: read and hash the file, read the entry,
// no JSON); "/store" is the first load of a new cache, JSON parsed and
// the entry written.
//
//	go test -run '^$' -bench '^BenchmarkLoadCompiled' -cpu 1 ./columnar/tokenizer
func BenchmarkLoadCompiled(b *testing.B) {
	dir := sharedDir(b)
	for _, name := range []string{"deepseek_v3", "gptoss", "qwen3", "llama3_1"} {
		gz := filepath.Join(dir, name, "tokenizer.json.gz")
		for _, form := range []string{"gz", "json"} {
			path := gz
			if form == "json" {
				// A file just written: let its sum be recorded (filesum.go).
				old := racyWindow
				racyWindow = 0
				defer func() { racyWindow = old }()
				// As a Hugging Face cache holds it: uncompressed.
				data, err := readMaybeGzip(gz)
				if err != nil {
					b.Fatal(err)
				}
				path = filepath.Join(b.TempDir(), "tokenizer.json")
				if err := os.WriteFile(path, data, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			benchmarkLoadCompiled(b, name+"/"+form, path)
		}
	}
}

func benchmarkLoadCompiled(b *testing.B, name, path string) {
	{
		b.Run("tok="+name+"/hit", func(b *testing.B) {
			cache := b.TempDir()
			if _, outcome, err := LoadCached(path, cache); err != nil || outcome != CompiledWritten {
				b.Fatal(outcome, err)
			}
			cpu := processCPUSeconds()
			for b.Loop() {
				if _, outcome, err := LoadCached(path, cache); err != nil || outcome != CompiledHit {
					b.Fatal(outcome, err)
				}
			}
			b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N)*1e3, "cpu-ms/op")
		})
		// A hit without the record of the file's sum: the file is hashed.
		b.Run("tok="+name+"/hit-hashing", func(b *testing.B) {
			cache := b.TempDir()
			if _, outcome, err := LoadCached(path, cache); err != nil || outcome != CompiledWritten {
				b.Fatal(outcome, err)
			}
			ids := filepath.Join(cache, compiledDir, sumDir)
			cpu := processCPUSeconds()
			for b.Loop() {
				b.StopTimer()
				if err := os.RemoveAll(ids); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, outcome, err := LoadCached(path, cache); err != nil || outcome != CompiledHit {
					b.Fatal(outcome, err)
				}
			}
			b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N)*1e3, "cpu-ms/op")
		})
		b.Run("tok="+name+"/store", func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				cache := b.TempDir()
				b.StartTimer()
				if _, outcome, err := LoadCached(path, cache); err != nil || outcome != CompiledWritten {
					b.Fatal(outcome, err)
				}
			}
		})
	}
}

// BenchmarkWords counts words in the 3000 shared texts.
//
//	go test -run '^$' -bench '^BenchmarkWords' -cpu 1 ./columnar/tokenizer
func BenchmarkWords(b *testing.B) {
	vectors := sharedVectors(b, sharedDir(b), "gptoss")
	bytes := 0
	for _, v := range vectors {
		bytes += len(v.Text)
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	for b.Loop() {
		for _, v := range vectors {
			_ = Words{}.Count(v.Text)
		}
	}
}

// BenchmarkEncodeParallel encodes the shared texts from GOMAXPROCS
// goroutines sharing one Tokenizer (its pool and cache), the counterpart
// of HF's "batch1024" column (2 threads: 3.11–4.04 MB/s).
//
//	go test -run '^$' -bench '^BenchmarkEncodeParallel' -cpu 2 ./columnar/tokenizer
func BenchmarkEncodeParallel(b *testing.B) {
	dir := sharedDir(b)
	for _, name := range []string{"deepseek_v3", "gptoss", "qwen3", "llama3_1"} {
		tok, vectors, bytes, tokens := benchVectors(b, dir, name)
		b.Run("tok="+name, func(b *testing.B) {
			runtime.GC()
			b.SetBytes(int64(bytes) / int64(len(vectors)))
			var next atomic.Int64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				var ids []uint32
				for pb.Next() {
					v := vectors[next.Add(1)%int64(len(vectors))]
					ids = tok.AppendEncode(ids[:0], v.Text)
				}
			})
			b.ReportMetric(float64(tokens)/float64(len(vectors))*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mtok/s")
		})
	}
}

// benchVectors loads tokenizer name and its shared vectors (dir/vectors),
// with their total text bytes and token count, the units the encode
// benchmarks report in.
func benchVectors(b *testing.B, dir, name string) (tok *Tokenizer, vectors []idVector, bytes, tokens int) {
	tok = loadShared(b, name)
	vectors = sharedVectors(b, dir, name)
	for _, v := range vectors {
		bytes += len(v.Text)
		tokens += v.Count
	}
	return tok, vectors, bytes, tokens
}

// BenchmarkCountRunOutputs counts, with gpt-oss's tokenizer, the output
// texts of shared/parity/runs/conc_hairball_tail (498 outputs, 2.33 MB:
// first chunk and the rest of each, as the events decoder counts them) —
// the counting of issue 32's zero-flag analyze with gpt-oss, in-process.
//
//	go test -run '^$' -bench CountRunOutputs -cpu 1 -benchtime 20x ./columnar/tokenizer
func BenchmarkCountRunOutputs(b *testing.B) {
	tok := loadShared(b, "gptoss")
	path := filepath.Join(sharedtest.Dir(b, "parity"), "parity", "runs", "conc_hairball_tail", "events.jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	size := 0
	for line := range bytes.Lines(data) {
		var ev struct {
			Type string            `json:"event_type"`
			Data []json.RawMessage `json:"data"`
		}
		if json.Unmarshal(line, &ev) != nil || ev.Type != "sample.complete" || len(ev.Data) < 2 {
			continue
		}
		var chunks []string
		if json.Unmarshal(ev.Data[1], &chunks) != nil {
			continue
		}
		for _, c := range chunks {
			texts, size = append(texts, c), size+len(c)
		}
	}
	if size < 2e6 {
		b.Fatalf("%d bytes of output text in %s, want the run's 2.33 MB", size, path)
	}
	for _, s := range texts { // the BPE cache warm, as after the first outputs of a run
		tok.Count(s)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	cpu := processCPUSeconds()
	for b.Loop() {
		for _, s := range texts {
			tok.Count(s)
		}
	}
	b.ReportMetric((processCPUSeconds()-cpu)/float64(b.N)*1e3, "cpu-ms/op")
}
