package columnar

import (
	"context"

	"github.com/steadysweep/steadysweep/core"
)

// endpointsReader reads today's endpoints events.jsonl: a thin adapter
// over the decoder (decode.go). The decoder records failures as a flag,
// so the kinds are derived from the columns (fillDecodedColumns); it
// counts no prompt tokens (that would need PromptData counted), so
// InTokens stays -1.
type endpointsReader struct{}

func (endpointsReader) Format() Format { return FormatEndpoints }

func (endpointsReader) Read(ctx context.Context, run *Run, opts IngestOptions, dst *Decoded) (core.RunInfo, error) {
	if err := decodeRun(ctx, run, opts, dst); err != nil {
		return core.RunInfo{}, err
	}
	return endpointsInfo(run), nil
}

// endpointsInfo is run.Info with the endpoints version from
// result_summary.json.
func endpointsInfo(run *Run) core.RunInfo {
	info := run.Info
	if rs := run.Sidecars.ResultSummary; rs != nil {
		info.ToolVersion = rs.Version
		if rs.GitSHA != "" {
			info.ToolVersion += " (" + rs.GitSHA + ")"
		}
	}
	return info
}
