package endpoints

import (
	"context"
	"fmt"
	"slices"
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
		text, _ := ld.Ps.TextAfterFirstChunk(line, f.Data)
		after := 0
		if len(text) > 0 {
			after = opts.Counter.Count(unsafe.String(unsafe.SliceData(text), len(text)))
			d.Samples.OutTokens[idx] = int64(after)
		}
		// The whole output for system TPS, as the first pass counts it
		// (lineDecoder.countStreamed); a whole count already taken stays.
		if d.Samples.FullTokens[idx] < 0 {
			if first, ok := ld.Ps.FirstChunkText(line, f.Data); ok {
				d.Samples.FullTokens[idx] = int64(streamedWhole(opts.Counter, first, after))
			}
		}
	}
	for br.Next(&b) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("sampled count %s: %w", run.EventsPath, err)
		}
		if b.tooLong {
			base++
			continue
		}
		n, _ := ForEachLine(b.buf, b.final, fn)
		base += n
	}
	return nil
}
