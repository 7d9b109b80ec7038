package columnar

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/core"
)

// IngestOptions configures Ingest.
type IngestOptions struct {
	// Counter counts output tokens; nil leaves the counts null.
	Counter TokenCounter
	// Allocator builds the record batch (memory.DefaultAllocator when nil).
	Allocator memory.Allocator
	// Workers is the number of decode goroutines (0: GOMAXPROCS).
	Workers int
	// TokenizeSample, when positive and the run's dataset size S is
	// known, counts the post-first-chunk text of at most this many
	// samples per super-pass (chosen evenly spaced in issue order among
	// those with text); the others keep a null count. 0 counts all.
	TokenizeSample int
	// MaxLineSize caps a line (DefaultMaxLineSize when 0).
	MaxLineSize int
	// Progress, when set, receives the number of bytes read so far.
	Progress func(bytesRead int64)
}

// Ingest decodes run's events file into a Table. Bad lines and a corrupt
// compressed stream are recorded in the table's Summary (the rest of the
// run is ingested); the error is for an unreadable file or a cancelled
// context.
//
// The run's Format picks the Reader (ResolveRun detected it from the
// log's content).
func Ingest(ctx context.Context, run *Run, opts IngestOptions) (*Table, error) {
	r, err := ReaderFor(run.Format)
	if err != nil {
		return nil, err
	}
	var d Decoded
	info, err := r.Read(ctx, run, opts, &d)
	if err != nil {
		return nil, err
	}
	return buildTable(run, info, opts, &d)
}

func decodeRun(ctx context.Context, run *Run, opts IngestOptions, d *Decoded) error {
	rc, err := openEvents(run.EventsPath)
	if err != nil {
		return err
	}
	defer rc.Close()
	S := run.Info.DatasetSize
	sampled := opts.TokenizeSample > 0 && S > 0 && opts.Counter != nil
	dopts := DecodeOptions{
		Name:           run.EventsPath,
		Counter:        opts.Counter,
		Workers:        opts.Workers,
		MaxLineSize:    opts.MaxLineSize,
		SkipTextCounts: sampled,
		Progress:       opts.Progress,
	}
	if run.Info.LoadPattern == "agentic_inference" {
		dopts.FullTokens = FullAlways
	}
	if err := DecodeReader(ctx, rc, dopts, d); err != nil {
		return fmt.Errorf("decode %s: %w", run.EventsPath, err)
	}
	if sampled {
		d.Summary.TokenizeSample, d.Summary.SuperPassSize = opts.TokenizeSample, S
		if err := countSampled(ctx, run, opts, d, S); err != nil {
			return err
		}
	}
	return nil
}

func buildTable(run *Run, info core.RunInfo, opts IngestOptions, d *Decoded) (*Table, error) {
	var idx []int64
	if si := run.Sidecars.SampleIndex; si != nil && si.ByUUID != nil {
		idx = make([]int64, d.Samples.Len())
		for i := range idx {
			v, ok := si.ByUUID[d.UUID(i)]
			if !ok {
				v = -1
			}
			idx[i] = v
		}
	}
	info.Partial, info.PartialReason = d.Summary.Truncated, d.Summary.TruncatedReason
	finishInfo(run, &info, &d.Samples)
	return newTable(opts.Allocator, d, idx, info)
}
