package columnar

import (
	"context"
	"fmt"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// Load decodes run's log into columns with the Reader of run.Format
// (ResolveRun detected it from the log's content). Bad lines and a
// corrupt compressed stream are recorded in the Summary (the rest of the
// run is ingested); the error is for an unreadable file, a cancelled
// context or an exceeded memory limit.
func Load(ctx context.Context, run *contract.Run, opts contract.IngestOptions) (*contract.Loaded, error) {
	r, err := ReaderFor(run.Format)
	if err != nil {
		return nil, err
	}
	l := &contract.Loaded{}
	info, err := r.Read(ctx, run, opts, &l.Decoded)
	if err != nil {
		return nil, err
	}
	dropImplausible(&l.Decoded, run.Format == "" || run.Format == contract.FormatEndpoints) // every reader's columns (plausible.go)
	l.EventsSHA256, l.EventsKey = l.HashedSHA256, l.HashedKey
	l.Index = scan.UUIDIndex{} // phase 2 is over: free the uuid table
	l.Attach(run, info)
	return l, nil
}

// Ingest decodes run's log into a Table (Load, then Table).
func Ingest(ctx context.Context, run *contract.Run, opts contract.IngestOptions) (*contract.Table, error) {
	l, err := Load(ctx, run, opts)
	if err != nil {
		return nil, err
	}
	return l.Table(), nil
}

// ReaderFor returns the reader of format f ("" is endpoints). It is a
// switch, not a package-level map, so that no process builds the table
// at start-up (issue 32).
func ReaderFor(f contract.Format) (contract.Reader, error) {
	switch f {
	case "", contract.FormatEndpoints:
		return endpoints.EndpointsReader{}, nil
	case contract.FormatEndpointsLegacy:
		return endpoints.LegacyReader{}, nil
	case contract.FormatAIPerf:
		return foreign.AIPerfReader{}, nil
	case contract.FormatGuideLLM:
		return foreign.GuideLLMReader{}, nil
	case contract.FormatVLLM:
		return foreign.VLLMReader{}, nil
	case contract.FormatLMBench:
		return foreign.LMBenchReader{}, nil
	case contract.FormatLLMPerf:
		return foreign.LLMPerfReader{}, nil
	case contract.FormatGenAIPerf:
		return foreign.GenAIPerfReader{}, nil
	case contract.FormatInferencePerf:
		return foreign.InferencePerfReader{}, nil
	case contract.FormatLoadGenTrace:
		return foreign.LoadGenReader{}, nil
	case contract.FormatSGLang:
		return foreign.SGLangReader{}, nil
	case contract.FormatAIPerfCSV:
		return foreign.AIPerfCSVReader{}, nil
	case contract.FormatAIPerfParquet:
		return foreign.AIPerfParquetReader{}, nil
	}
	return nil, fmt.Errorf("no reader for format %q", f)
}
