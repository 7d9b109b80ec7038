package endpoints

import (
	"bytes"
	"fmt"
	"maps"
	"slices"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// Follower decodes an endpoints events stream that is still growing (a
// run in progress, `steadysweep watch`): Feed takes the bytes appended
// since the last call, decodes the complete lines among them at once and
// keeps a partial last line until its line terminator arrives — a partial
// line is waited for, not an error. Nothing is decoded twice and nothing
// is re-read: the caller feeds each byte once (Fed counts them), and the
// decoder's state (the per-sample state machine, line numbers, the uuid
// table) carries over from one Feed to the next.
//
// Snapshot copies the samples decoded so far into columns the detector
// can own; Finish decodes the last line as the stream's final one (with
// or without a terminator) and closes the tallies, after which the
// Follower takes no more bytes.
type Follower struct {
	dst     *contract.Decoded
	m       *machine
	dec     *LineDecoder
	c       collector
	blk     block
	partial []byte
	maxLine int
	// skipping drops the bytes of an overlong line up to its terminator.
	skipping bool
	fed      int64
	done     bool
}

// NewFollower prepares a Follower. opts are DecodeOptions (Name, Counter,
// MaxLineSize, FullTokens; Workers, BlockSize, Progress, SizeHint and
// SkipTextCounts are not used: lines are decoded as they arrive, in the
// calling goroutine, and counted at once).
func NewFollower(opts DecodeOptions) *Follower {
	dst := &contract.Decoded{}
	dst.Reset()
	dst.Summary.File = opts.Name
	dst.Summary.TrackingStartNs, dst.Summary.TrackingStopNs = -1, -1
	dst.Summary.Events = make(map[string]int64)
	m := newMachine(dst, 0, scan.UUIDIndex{})
	d := &LineDecoder{
		Counter:   opts.Counter,
		CountText: true, countWanted: true,
		CountFull:  opts.FullTokens == contract.FullAlways,
		CountConvs: opts.FullTokens == contract.FullAuto,
	}
	_, d.Words = opts.Counter.(scan.WhitespaceWordCounter)
	d.lineFn = d.decodeOne
	f := &Follower{dst: dst, m: m, dec: d}
	f.c = collector{m: m, dst: dst}
	if opts.MaxLineSize <= 0 {
		opts.MaxLineSize = contract.DefaultMaxLineSize
	}
	f.maxLine = opts.MaxLineSize
	return f
}

// Fed returns the number of bytes fed so far.
func (f *Follower) Fed() int64 { return f.fed }

// Lines returns the number of complete lines decoded so far.
func (f *Follower) Lines() int64 { return f.c.baseLine }

// Pending returns the bytes of the partial last line held back.
func (f *Follower) Pending() int { return len(f.partial) }

// Feed decodes the complete lines of p, appended to the partial line
// held back from the previous Feed; the bytes after p's last line
// terminator are held back in turn. A line longer than the maximum line
// size is skipped and recorded as a problem, as DecodeReader does. The
// error reports a Follower already finished or the memory limit.
func (f *Follower) Feed(p []byte) error {
	if f.done {
		return fmt.Errorf("columnar: follow %s: Feed after Finish", f.dst.Summary.File)
	}
	f.fed += int64(len(p))
	f.dst.Summary.Bytes = f.fed
	if f.skipping {
		i := bytes.IndexAny(p, "\n\r")
		if i < 0 {
			return nil
		}
		f.skipping, p = false, p[i+1:]
	}
	cut := bytes.LastIndexAny(p, "\n\r")
	if cut < 0 {
		f.partial = append(f.partial, p...)
		if len(f.partial) > f.maxLine {
			return f.skipLong()
		}
		return nil
	}
	// A "\r" ending p may be the first half of "\r\n": hold it back, so
	// the "\n" that follows is not read as an empty line of its own (it
	// would be skipped, but line numbers would drift).
	if p[cut] == '\r' && cut == len(p)-1 {
		if cut = bytes.LastIndexAny(p[:cut], "\n\r"); cut < 0 {
			f.partial = append(f.partial, p...)
			return nil
		}
	}
	var buf []byte
	if len(f.partial) > 0 {
		buf = append(f.partial, p[:cut+1]...)
	} else {
		buf = p[:cut+1]
	}
	if err := f.Decode(buf, false); err != nil {
		return err
	}
	f.partial = append(f.partial[:0], p[cut+1:]...)
	return nil
}

// skipLong drops the overlong partial line, and the rest of it up to its
// terminator as it arrives, and records it as one overlong line.
func (f *Follower) skipLong() error {
	f.partial, f.skipping = f.partial[:0], true
	f.blk.res = blockResult{}
	f.blk.tooLong, f.blk.buf, f.blk.final = true, nil, false
	err := f.c.consume(&f.blk)
	f.blk.tooLong = false
	return err
}

// Decode runs both phases over buf, a run of whole lines.
func (f *Follower) Decode(buf []byte, final bool) error {
	b := &f.blk
	b.buf, b.final, b.tooLong, b.err = buf, final, false, nil
	f.dec.decodeBlock(buf, final, &b.res)
	err := f.c.consume(b)
	b.buf = nil
	return err
}

// Finish decodes the held-back partial line as the stream's last one
// and closes the decode: the summary's tallies and truncation (a last
// line without terminator, no session.ended event) are set as
// DecodeReader sets them. Later calls do nothing.
func (f *Follower) Finish() error {
	if f.done {
		return nil
	}
	f.done = true
	if err := f.Decode(f.partial, true); err != nil {
		return err
	}
	f.partial = nil
	f.c.finish()
	f.m.finish()
	contract.FillDecodedColumns(&f.dst.Samples)
	applyErrorCauses(f.dst)
	return nil
}

// Ended reports whether a session.ended event has been decoded.
func (f *Follower) Ended() bool { return f.c.ended }

// Decoded returns the decode after Finish (nil before: the columns are
// still being written).
func (f *Follower) Decoded() *contract.Decoded {
	if !f.done {
		return nil
	}
	return f.dst
}

// Snapshot returns a copy of the samples decoded so far, with the
// columns DecodeReader derives at the end (failure kinds and codes) as
// they stand: a sample still in flight is FailIncomplete. The copy is the
// caller's; the Follower goes on writing its own columns.
func (f *Follower) Snapshot() *core.Samples {
	if f.done {
		s := copySamples(&f.dst.Samples)
		return &s
	}
	tmp := contract.Decoded{Samples: copySamples(&f.dst.Samples), ErrCauses: f.dst.ErrCauses}
	contract.FillDecodedColumns(&tmp.Samples)
	applyErrorCauses(&tmp)
	return &tmp.Samples
}

// Summary returns a copy of the summary so far (its per-sample tallies
// are set by Finish only).
func (f *Follower) Summary() contract.Summary {
	s := f.dst.Summary
	s.Events = maps.Clone(s.Events)
	s.Problems = slices.Clone(s.Problems)
	return s
}

// copySamples copies every column of s (each up to its own length).
func copySamples(s *core.Samples) core.Samples {
	c := func(xs []int64) []int64 { return slices.Clone(xs) }
	return core.Samples{
		IssueNs: c(s.IssueNs), LastIssueNs: c(s.LastIssueNs), LastEventNs: c(s.LastEventNs),
		HasFirstToken: slices.Clone(s.HasFirstToken), FirstTokenNs: c(s.FirstTokenNs), TTFTNs: c(s.TTFTNs),
		WarmTTFT: slices.Clone(s.WarmTTFT), FirstTokenSeq: c(s.FirstTokenSeq),
		HasComplete: slices.Clone(s.HasComplete), CompleteNs: c(s.CompleteNs), LatencyNs: c(s.LatencyNs),
		CompleteSeq: c(s.CompleteSeq), OutTokens: c(s.OutTokens), FullTokens: c(s.FullTokens),
		Failed: slices.Clone(s.Failed), FailureKind: slices.Clone(s.FailureKind), FailCode: slices.Clone(s.FailCode),
		InTokens: c(s.InTokens), ReasoningTokens: c(s.ReasoningTokens), Retries: slices.Clone(s.Retries),
		ConversationID: slices.Clone(s.ConversationID), Turn: slices.Clone(s.Turn),
	}
}

// RunInfo is the RunInfo of run (its sidecars, resolved by ResolveRun) for
// the samples s followed so far, as Load sets it: the format's facts, and
// Partial while the stream has no session.ended event (or is truncated,
// after Finish).
func (f *Follower) RunInfo(run *contract.Run, s *core.Samples) core.RunInfo {
	info := EndpointsInfo(run)
	if f.done {
		info.Partial, info.PartialReason = f.dst.Summary.Truncated, f.dst.Summary.TruncatedReason
	} else if !f.c.ended {
		info.Partial, info.PartialReason = true, "run in progress"
	}
	contract.FinishInfo(run, &info, s)
	return info
}
