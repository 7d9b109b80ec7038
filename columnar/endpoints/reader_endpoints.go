package endpoints

import (
	"context"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"slices"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/sha256"
)

// EndpointsReader reads today's endpoints events.jsonl: a thin adapter
// over the decoder (decode.go). The decoder records failures as a flag,
// so the kinds are derived from the columns (fillDecodedColumns); it
// counts no prompt tokens (that would need PromptData counted), so
// InTokens stays -1.
type EndpointsReader struct{}

func (EndpointsReader) Format() contract.Format { return contract.FormatEndpoints }

func (EndpointsReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	if err := decodeRun(ctx, run, opts, dst); err != nil {
		return core.RunInfo{}, err
	}
	return EndpointsInfo(run), nil
}

// EndpointsInfo is run.Info with the endpoints version from
// result_summary.json.
func EndpointsInfo(run *contract.Run) core.RunInfo {
	info := run.Info
	if rs := run.Sidecars.ResultSummary; rs != nil {
		info.ToolVersion = rs.Version
		if rs.GitSHA != "" {
			info.ToolVersion += " (" + rs.GitSHA + ")"
		}
	}
	return info
}

// decodeRun decodes run's endpoints events into d, hashing the file's
// bytes into d.HashedSHA256 when opts.HashEvents asks and into
// d.HashedKey when opts.KeyEvents does, on the one read.
func decodeRun(ctx context.Context, run *contract.Run, opts contract.IngestOptions, d *contract.Decoded) (err error) {
	var sha, key hash.Hash
	var hs []io.Writer
	if opts.HashEvents {
		sha = sha256.New()
		hs = append(hs, sha)
	}
	if opts.KeyEvents {
		key = contract.NewContentKey()
		hs = append(hs, key)
	}
	var h io.Writer
	switch len(hs) {
	case 1:
		h = hs[0]
	case 2:
		h = io.MultiWriter(hs...)
	}
	rc, err := contract.OpenEventsHashed(run.EventsPath, h)
	if err != nil {
		return err
	}
	defer rc.Close()
	rc.Watch(ctx)
	if _, ok := opts.Counter.(scan.ContextCounter); ok {
		// A count that fails (a tokenizer pattern too expensive for a text)
		// cancels the decode; the failure, not "context canceled", is the
		// error, even when the decoder finished before it looked at ctx
		// again. A cancelled ctx also stops a count in the middle of a text.
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		var bc *scan.BoundCounter
		opts.Counter, bc = scan.BindCounter(ctx, opts.Counter, cancel)
		defer func() {
			if ferr := bc.Failure(); ferr != nil {
				err = fmt.Errorf("count tokens in %s: %w", run.EventsPath, ferr)
			}
		}()
	}
	S := contract.SampleSuperPass(run, opts)
	sampled := opts.TokenizeSample > 0 && S > 0 && opts.Counter != nil
	dopts := DecodeOptions{
		Name:           run.EventsPath,
		Counter:        opts.Counter,
		Workers:        opts.Workers,
		MaxLineSize:    opts.MaxLineSize,
		MemoryLimit:    opts.MemoryLimit,
		SkipTextCounts: sampled,
		Progress:       opts.Progress,
		FullTokens:     contract.TokensModeOf(run),
	}
	if run.Compression == "" {
		dopts.SizeHint = rc.Size
	}
	if err := DecodeReader(ctx, rc, dopts, d); err != nil {
		return fmt.Errorf("decode %s: %w", run.EventsPath, err)
	}
	if h != nil {
		// A corrupt compressed stream ends the decode early: the hash still
		// covers the whole file.
		if _, err := io.Copy(io.Discard, rc.Raw); err != nil {
			return fmt.Errorf("hash %s: %w", run.EventsPath, err)
		}
		if sha != nil {
			d.HashedSHA256 = hex.EncodeToString(sha.Sum(nil))
		}
		if key != nil {
			d.HashedKey = hex.EncodeToString(key.Sum(nil))
		}
	}
	switch {
	case sampled:
		d.Summary.TokenizeSample, d.Summary.SuperPassSize = opts.TokenizeSample, S
		if err := countSampled(ctx, run, opts, d, S); err != nil {
			return err
		}
	case len(d.UncountedRows) > 0 && opts.Counter != nil:
		// Blocks decoded while a PendingCounter was loading.
		if err := CountLines(ctx, run, opts, d, slices.Clone(d.UncountedRows)); err != nil {
			return err
		}
	}
	return nil
}
