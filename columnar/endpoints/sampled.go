package endpoints

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// This file implements sampled tokenization (IngestOptions.TokenizeSample):
// after the decode, at most K samples per super-pass are chosen and their
// COMPLETE lines are found again by line number and counted.

// chooseSampled returns, per super-pass of size S, at most k of the
// candidate samples, evenly spaced in issue order: with m candidates,
// positions ⌊j·m/k⌋ for j = 0..k−1.
func chooseSampled(candidates []int32, S, k int) []int32 {
	c := slices.Clone(candidates)
	slices.Sort(c)
	var out []int32
	for lo := 0; lo < len(c); {
		sp := int(c[lo]) / S
		hi := lo
		for hi < len(c) && int(c[hi])/S == sp {
			hi++
		}
		group := c[lo:hi]
		if m := len(group); m <= k {
			out = append(out, group...)
		} else {
			for j := 0; j < k; j++ {
				out = append(out, group[j*m/k])
			}
		}
		lo = hi
	}
	return out
}

// countSampled counts the chosen samples' text in a second pass.
func countSampled(ctx context.Context, run *contract.Run, opts contract.IngestOptions, d *contract.Decoded, S int) error {
	return CountLines(ctx, run, opts, d, chooseSampled(d.UncountedRows, S, opts.TokenizeSample))
}

// CountLines counts the text of the chosen samples' COMPLETE lines in a
// second pass over the events file; d.uncounted is emptied.
func CountLines(ctx context.Context, run *contract.Run, opts contract.IngestOptions, d *contract.Decoded, chosen []int32) error {
	want := make(map[int64]int32, len(chosen)) // 1-based line → sample
	for _, idx := range chosen {
		want[d.Samples.CompleteSeq[idx]+1] = idx
	}
	d.UncountedRows = d.UncountedRows[:0]
	if len(want) == 0 {
		return nil
	}
	rc, err := contract.OpenEventsCtx(ctx, run.EventsPath)
	if err != nil {
		return err
	}
	defer rc.Close()
	br := &blockReader{r: rc, blockSize: contract.DefaultBlockSize, maxLine: contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize)}
	var (
		b    block
		base int64
		ld   LineDecoder
		f    Fields
	)
	var jobs []lineCount
	fn := func(line []byte, lineNo int64, _ bool, _ LineFacts) {
		idx, ok := want[base+lineNo]
		if !ok {
			return
		}
		line = scan.PyStrip(line)
		f = Fields{}
		if ld.scanEnvelope(line, &f) != nil {
			return
		}
		// A text inside the line stays valid for the block; one joined or
		// unescaped into ld's reused buffers is copied for the counters.
		job := lineCount{idx: idx}
		text, _ := ld.Ps.TextAfterFirstChunk(line, f.Data)
		job.after = inLineOrCopy(line, text)
		// The whole output for system TPS, as the first pass counts it
		// (lineDecoder.countStreamed); a whole count already taken stays.
		if d.Samples.FullTokens[idx] < 0 {
			if first, ok := ld.Ps.FirstChunkText(line, f.Data); ok {
				job.first, job.whole = inLineOrCopy(line, first), true
			}
		}
		jobs = append(jobs, job)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for br.Next(&b) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("sampled count %s: %w", run.EventsPath, err)
		}
		if b.tooLong {
			base++
			continue
		}
		jobs = jobs[:0]
		n, _ := ForEachLine(b.buf, b.final, fn)
		base += n
		countLineJobs(opts.Counter, d, jobs, workers)
	}
	return nil
}

// lineCount is one COMPLETE line's texts to count (CountLines): the text
// after the first chunk, and the first chunk when the whole output's
// count is wanted too.
type lineCount struct {
	idx          int32
	after, first string
	whole        bool
}

// countLineJobs counts jobs on up to workers goroutines (the tokenizer is
// safe for concurrent use; each job writes only its own sample's slots),
// a job at a time from a shared cursor so that long outputs spread.
func countLineJobs(c scan.TokenCounter, d *contract.Decoded, jobs []lineCount, workers int) {
	count := func(j *lineCount) {
		after := 0
		if len(j.after) > 0 {
			after = c.Count(j.after)
			d.Samples.OutTokens[j.idx] = int64(after)
		}
		if j.whole {
			d.Samples.FullTokens[j.idx] = int64(streamedWhole(c, unsafe.Slice(unsafe.StringData(j.first), len(j.first)), after))
		}
	}
	workers = min(workers, len(jobs))
	if workers <= 1 {
		for i := range jobs {
			count(&jobs[i])
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(jobs)); i = next.Add(1) - 1 {
				count(&jobs[i])
			}
		})
	}
	wg.Wait()
}

// inLineOrCopy is text as a string: a view when it lies inside line (the
// block's bytes, unchanged until the block's counts are done), else a
// copy.
func inLineOrCopy(line, text []byte) string {
	if len(text) == 0 {
		return ""
	}
	lo, p := uintptr(unsafe.Pointer(unsafe.SliceData(line))), uintptr(unsafe.Pointer(unsafe.SliceData(text)))
	if p >= lo && p+uintptr(len(text)) <= lo+uintptr(len(line)) {
		return unsafe.String(unsafe.SliceData(text), len(text))
	}
	return string(text)
}
