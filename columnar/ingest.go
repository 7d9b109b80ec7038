package columnar

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/core"
)

// IngestOptions configures Load and Ingest.
type IngestOptions struct {
	// Counter counts output tokens; nil leaves the counts null.
	Counter TokenCounter
	// Allocator builds the record batch (memory.DefaultAllocator when nil).
	Allocator memory.Allocator
	// Workers is the number of decode goroutines (0: GOMAXPROCS).
	Workers int
	// TokenizeSample, when positive and the super-pass size S is known,
	// counts the post-first-chunk text of at most this many samples per
	// super-pass (chosen evenly spaced in issue order among those with
	// text); the others keep a null count. 0 counts all.
	TokenizeSample int
	// SuperPassSize is the S of TokenizeSample when the run's dataset size
	// is unknown (0: the dataset size only).
	SuperPassSize int
	// MaxLineSize caps a line (DefaultMaxLineSize when 0).
	MaxLineSize int
	// MemoryLimit is DecodeOptions.MemoryLimit (0: none).
	MemoryLimit int64
	// HashEvents computes the SHA-256 of the events file as stored (the
	// compressed bytes of a compressed log) while it is decoded, into
	// Loaded.EventsSHA256: the file is read once.
	HashEvents bool
	// Progress, when set, receives the number of bytes read so far.
	Progress func(bytesRead int64)
}

// Loaded is an ingested run held as the detector's columns: the decoded
// samples with their uuids, text lengths and summary, the run's facts and
// dataset indices from its sidecars. Nothing is copied through Arrow;
// Table builds the record batch when one is wanted (export, cache).
type Loaded struct {
	Decoded
	// Info is the run's RunInfo, with Partial set from the summary.
	Info core.RunInfo
	// DatasetIndex is each sample's index in sample_idx_map.json (-1
	// when absent from it); nil without the sidecar.
	DatasetIndex []int64
	// EventsSHA256 is the hex SHA-256 of the events file as stored, when
	// IngestOptions.HashEvents asked for it (endpoints logs) or a cache
	// entry recorded it.
	EventsSHA256 string
}

// Table builds the Arrow form of l (Release it when done).
func (l *Loaded) Table(mem memory.Allocator) (*Table, error) {
	return newTable(mem, &l.Decoded, l.DatasetIndex, l.Info)
}

// Load decodes run's log into columns with the Reader of run.Format
// (ResolveRun detected it from the log's content). Bad lines and a
// corrupt compressed stream are recorded in the Summary (the rest of the
// run is ingested); the error is for an unreadable file, a cancelled
// context or an exceeded memory limit.
func Load(ctx context.Context, run *Run, opts IngestOptions) (*Loaded, error) {
	r, err := ReaderFor(run.Format)
	if err != nil {
		return nil, err
	}
	l := &Loaded{}
	info, err := r.Read(ctx, run, opts, &l.Decoded)
	if err != nil {
		return nil, err
	}
	dropImplausible(&l.Decoded, run.Format == "" || run.Format == FormatEndpoints) // every reader's columns (plausible.go)
	l.EventsSHA256 = l.eventsSHA256
	l.index = uuidIndex{} // phase 2 is over: free the uuid table
	l.attach(run, info)
	return l, nil
}

// Ingest decodes run's log into a Table (Load, then Table).
func Ingest(ctx context.Context, run *Run, opts IngestOptions) (*Table, error) {
	l, err := Load(ctx, run, opts)
	if err != nil {
		return nil, err
	}
	return l.Table(opts.Allocator)
}

// attach sets the run's facts on the decoded samples: info (partial from
// the summary, the format's defaults) and the dataset indices of
// sample_idx_map.json. It is applied on every load, a cache hit included,
// so the cached columns depend on the log's bytes and the decode options.
func (l *Loaded) attach(run *Run, info core.RunInfo) {
	l.DatasetIndex = nil
	if si := run.Sidecars.SampleIndex; si != nil && si.Performance {
		l.DatasetIndex = make([]int64, l.Samples.Len())
		for i := range l.DatasetIndex {
			v, ok := si.Lookup(l.UUID(i))
			if !ok {
				v = -1
			}
			l.DatasetIndex[i] = v
		}
	}
	info.Partial, info.PartialReason = l.Summary.Truncated, l.Summary.TruncatedReason
	info.EventAnomalies = slices.Clone(l.Summary.EventAnomalies)
	finishInfo(run, &info, &l.Samples)
	l.Info = info
}

// decodeRun decodes run's endpoints events into d, hashing the file's
// bytes into d.eventsSHA256 when opts.HashEvents asks.
func decodeRun(ctx context.Context, run *Run, opts IngestOptions, d *Decoded) (err error) {
	var h hash.Hash
	if opts.HashEvents {
		h = sha256.New()
	}
	rc, err := openEventsHashed(run.EventsPath, h)
	if err != nil {
		return err
	}
	defer rc.Close()
	rc.watch(ctx)
	if _, ok := opts.Counter.(contextCounter); ok {
		// A count that fails (a tokenizer pattern too expensive for a text)
		// cancels the decode; the failure, not "context canceled", is the
		// error, even when the decoder finished before it looked at ctx
		// again. A cancelled ctx also stops a count in the middle of a text.
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		var bc *boundCounter
		opts.Counter, bc = bindCounter(ctx, opts.Counter, cancel)
		defer func() {
			if ferr := bc.failure(); ferr != nil {
				err = fmt.Errorf("count tokens in %s: %w", run.EventsPath, ferr)
			}
		}()
	}
	S := sampleSuperPass(run, opts)
	sampled := opts.TokenizeSample > 0 && S > 0 && opts.Counter != nil
	dopts := DecodeOptions{
		Name:           run.EventsPath,
		Counter:        opts.Counter,
		Workers:        opts.Workers,
		MaxLineSize:    opts.MaxLineSize,
		MemoryLimit:    opts.MemoryLimit,
		SkipTextCounts: sampled,
		Progress:       opts.Progress,
		FullTokens:     fullTokensMode(run),
	}
	if run.Compression == "" {
		dopts.SizeHint = rc.size
	}
	if err := DecodeReader(ctx, rc, dopts, d); err != nil {
		return fmt.Errorf("decode %s: %w", run.EventsPath, err)
	}
	if h != nil {
		// A corrupt compressed stream ends the decode early: the hash still
		// covers the whole file.
		if _, err := io.Copy(io.Discard, rc.raw); err != nil {
			return fmt.Errorf("hash %s: %w", run.EventsPath, err)
		}
		d.eventsSHA256 = hex.EncodeToString(h.Sum(nil))
	}
	switch {
	case sampled:
		d.Summary.TokenizeSample, d.Summary.SuperPassSize = opts.TokenizeSample, S
		if err := countSampled(ctx, run, opts, d, S); err != nil {
			return err
		}
	case len(d.uncounted) > 0 && opts.Counter != nil:
		// Blocks decoded while a PendingCounter was loading.
		if err := countLines(ctx, run, opts, d, slices.Clone(d.uncounted)); err != nil {
			return err
		}
	}
	return nil
}

// sampleSuperPass is the super-pass size TokenizeSample samples per: the
// run's dataset size, else IngestOptions.SuperPassSize.
func sampleSuperPass(run *Run, opts IngestOptions) int {
	if run.Info.DatasetSize > 0 {
		return run.Info.DatasetSize
	}
	return opts.SuperPassSize
}

// fullTokensMode is when the agentic full-output count is taken for run.
func fullTokensMode(run *Run) FullTokensMode {
	if run.Info.LoadPattern == "agentic_inference" {
		return FullAlways
	}
	return FullAuto
}
