package endpoints

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// DecodeOptions configures DecodeReader.
type DecodeOptions struct {
	// Name is the file name used in problems ("" prints as <input>).
	Name string
	// Counter counts tokens; nil leaves every count at -1.
	Counter scan.TokenCounter
	// Workers is the number of phase-1 goroutines; 0 means GOMAXPROCS,
	// 1 decodes in the calling goroutine.
	Workers int
	// BlockSize is the target block size (DefaultBlockSize when 0).
	BlockSize int
	// MaxLineSize caps a line; longer lines are skipped with a
	// KindLineTooLong problem (DefaultMaxLineSize when 0).
	MaxLineSize int
	// SkipTextCounts leaves the post-first-chunk counts undone; their
	// samples are listed by Decoded.Uncounted for a later pass.
	SkipTextCounts bool
	// FullTokens: "auto" (zero value) counts the full output of COMPLETE
	// lines that carry a conversation id; FullAlways counts every one;
	// FullNever none.
	FullTokens contract.FullTokensMode
	// Progress, when set, is called from one goroutine with the number
	// of bytes read so far.
	Progress func(bytesRead int64)
	// SizeHint is the stream's expected length in bytes (0 unknown): the
	// columns are then sized about once, from the fraction read.
	SizeHint int64
	// MemoryLimit, when positive, bounds what the decoder holds: read
	// buffers are shrunk to fit in an eighth of it, and a log whose
	// samples' columns would exceed it ends the decode with an error
	// (ErrMemoryLimit) instead of exhausting memory.
	MemoryLimit int64
}

// DecodeReader decodes an events stream (event-log spec §1) into dst,
// which it resets first. Bad lines are counted in dst.Summary and
// skipped; the error is non-nil only for a cancelled context. A read
// error (such as a corrupt compressed stream) ends the stream: the lines
// before it are kept and a KindCorruptStream problem is recorded.
func DecodeReader(ctx context.Context, r io.Reader, opts DecodeOptions, dst *contract.Decoded) error {
	dst.Reset()
	dst.Summary.File = opts.Name
	dst.Summary.TrackingStartNs, dst.Summary.TrackingStopNs = -1, -1
	dst.Summary.Events = make(map[string]int64)
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	br := &blockReader{
		r:         r,
		blockSize: contract.Cmp0(opts.BlockSize, contract.DefaultBlockSize),
		maxLine:   contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize),
	}
	// A stream that fills every buffer in flight (the blocks of
	// decodeParallel) gets them cut from one huge-page array, unless
	// memory is bounded (the array holds up to 4 MiB spare).
	br.hugeBuffers = opts.MemoryLimit <= 0 && opts.SizeHint >= int64(2*workers+2)*int64(br.blockSize)
	if lim := opts.MemoryLimit; lim > 0 {
		// In flight: 2·workers+2 blocks, each of which may grow to a line.
		blocks := int64(2*workers + 2)
		br.blockSize = int(max(64<<10, min(int64(br.blockSize), lim/8/blocks)))
		br.maxLine = int(max(64<<10, min(int64(br.maxLine), lim/4/blocks)))
	}
	m := newMachine(dst, opts.SizeHint, dst.Index)
	m.limit = opts.MemoryLimit
	defer func() { dst.Index = m.index }()
	c := collector{m: m, dst: dst}
	newDecoder := func() *LineDecoder {
		d := &LineDecoder{
			Counter:     opts.Counter,
			CountText:   !opts.SkipTextCounts,
			countWanted: !opts.SkipTextCounts,
			CountFull:   opts.FullTokens == contract.FullAlways,
			CountConvs:  opts.FullTokens == contract.FullAuto,
		}
		_, d.Words = opts.Counter.(scan.WhitespaceWordCounter)
		d.pending, _ = opts.Counter.(scan.PendingCounter)
		d.lineFn = d.decodeOne
		return d
	}
	var err error
	if workers == 1 {
		err = decodeSequential(ctx, br, newDecoder(), &c, opts.Progress)
	} else {
		err = decodeParallel(ctx, br, newDecoder, workers, &c, opts.Progress)
	}
	if err != nil {
		return err
	}
	c.finish()
	m.finish()
	contract.FillDecodedColumns(&dst.Samples)
	applyErrorCauses(dst)
	if opts.Counter != nil {
		dst.Summary.Counter = opts.Counter.Identity() // a pending counter is ready by now or soon
	}
	return nil
}

// collector is the sequential consumer of block results (phase 2).
type collector struct {
	m        *machine
	dst      *contract.Decoded
	baseLine int64
	ended    bool
	lastCut  bool
	readErr  error
	touched  uint64 // the sum of the slots touched, kept (consume)
}

func (c *collector) consume(b *block) error {
	sum := &c.dst.Summary
	c.m.pos += int64(len(b.buf))
	base := c.baseLine
	res := &b.res
	if b.tooLong {
		res.events, res.issues = res.events[:0], res.issues[:0]
		res.lines = 1
		res.counts = [NumEvKinds]int64{}
		res.otherTypes = nil
		res.lastCut = false
		sum.AddProblem(contract.KindLineTooLong, base+1, "")
	}
	for _, is := range res.issues {
		sum.AddProblem(is.Kind, base+is.line, is.field)
	}
	// The index slots of the block's uuids first, their cache misses
	// overlapped (UUIDIndex.Touch), then the events in order.
	touched := uint64(0)
	for i := range res.events {
		if ev := &res.events[i]; ev.Flags&(fUUID|fUUIDExt) == fUUID {
			touched += c.m.index.Touch(&ev.uuid)
		}
	}
	c.touched += touched
	for i := range res.events {
		ev := &res.events[i]
		ev.Line += base
		c.m.apply(ev)
	}
	for k, n := range res.counts {
		if n > 0 {
			sum.Events[evNames[k]] += n
		}
	}
	for name, n := range res.otherTypes {
		sum.Events[name] += n
	}
	if res.counts[evEnded] > 0 {
		c.ended = true
	}
	c.baseLine += res.lines
	sum.Lines = c.baseLine
	if b.final {
		c.lastCut = res.lastCut
	}
	if b.err != nil && c.readErr == nil {
		c.readErr = b.err
		sum.AddProblem(contract.KindCorruptStream, max(c.baseLine, 1), "") // lines are 1-indexed, even before the first
	}
	return c.m.err
}

func (c *collector) finish() {
	sum := &c.dst.Summary
	switch {
	case c.readErr != nil:
		sum.Truncated, sum.TruncatedReason = true, fmt.Sprintf("read error after line %d: %v", sum.Lines, c.readErr)
	case c.lastCut:
		sum.Truncated, sum.TruncatedReason = true, "last line has no newline"
	case !c.ended:
		sum.Truncated, sum.TruncatedReason = true, "no session.ended event"
	}
}

// blockPool recycles blocks (their buffers and event slices) across
// decodes; blocks grown for a long line are dropped instead.
var blockPool = sync.Pool{New: func() any { return new(block) }}

func getBlock() *block { return blockPool.Get().(*block) }

func putBlock(b *block, blockSize int) {
	if cap(b.buf) > 2*blockSize {
		return
	}
	b.res.otherTypes = nil
	blockPool.Put(b)
}

func decodeSequential(ctx context.Context, br *blockReader, d *LineDecoder, c *collector, progress func(int64)) error {
	b := getBlock()
	defer func() { putBlock(b, br.blockSize) }()
	for seq := 0; ; seq++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !br.Next(b) {
			break
		}
		c.dst.Summary.Bytes = br.read
		if progress != nil {
			progress(br.read)
		}
		if !b.tooLong {
			d.decodeBlock(b.buf, b.final, &b.res)
		}
		if err := c.consume(b); err != nil {
			return err
		}
	}
	return nil
}

func decodeParallel(ctx context.Context, br *blockReader, newDecoder func() *LineDecoder, workers int, c *collector, progress func(int64)) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	nBlocks := 2*workers + 2
	free := make(chan *block, nBlocks)
	blocks := make([]*block, nBlocks)
	for i := range blocks {
		blocks[i] = getBlock()
	}
	if br.hugeBuffers {
		giveBlockBuffers(blocks, br.blockSize)
	}
	for _, b := range blocks {
		free <- b
	}
	defer func() {
		for {
			select {
			case b := <-free:
				putBlock(b, br.blockSize)
			default:
				return
			}
		}
	}()
	work := make(chan *block, nBlocks)
	done := make(chan *block, nBlocks)
	var readBytes int64
	var wg sync.WaitGroup

	wg.Add(1)
	go func() { // reader
		defer wg.Done()
		defer close(work)
		for seq := 0; ; seq++ {
			var b *block
			select {
			case b = <-free:
			case <-ctx.Done():
				return
			}
			if !br.Next(b) {
				free <- b
				return
			}
			b.seq = seq
			if progress != nil {
				progress(br.read)
			}
			work <- b
			if b.final {
				return
			}
		}
	}()
	var ww sync.WaitGroup
	for i := 0; i < workers; i++ {
		ww.Add(1)
		go func() {
			defer ww.Done()
			d := newDecoder()
			for b := range work {
				if !b.tooLong && ctx.Err() == nil {
					d.decodeBlock(b.buf, b.final, &b.res)
				}
				done <- b
			}
		}()
	}
	go func() { ww.Wait(); wg.Wait(); close(done) }()

	waiting := make(map[int]*block, nBlocks)
	next := 0
	var err error
	for b := range done {
		if err != nil {
			continue // draining after cancellation
		}
		waiting[b.seq] = b
		for {
			nb, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			cerr := c.consume(nb)
			free <- nb
			if cerr != nil {
				err = cerr
				cancel()
				break
			}
		}
		if e := ctx.Err(); e != nil && err == nil {
			err = e
			cancel()
		}
	}
	readBytes = br.read
	c.dst.Summary.Bytes = readBytes
	return err
}
