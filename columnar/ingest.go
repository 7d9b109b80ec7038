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

// readers maps each format to its reader.
var readers = map[contract.Format]contract.Reader{
	contract.FormatEndpoints:       endpoints.EndpointsReader{},
	contract.FormatEndpointsLegacy: endpoints.LegacyReader{},
	contract.FormatAIPerf:          foreign.AIPerfReader{},
	contract.FormatGuideLLM:        foreign.GuideLLMReader{},
	contract.FormatVLLM:            foreign.VLLMReader{},
	contract.FormatLMBench:         foreign.LMBenchReader{},
	contract.FormatLLMPerf:         foreign.LLMPerfReader{},
	contract.FormatGenAIPerf:       foreign.GenAIPerfReader{},
	contract.FormatInferencePerf:   foreign.InferencePerfReader{},
	contract.FormatLoadGenTrace:    foreign.LoadGenReader{},
	contract.FormatSGLang:          foreign.SGLangReader{},
	contract.FormatAIPerfCSV:       foreign.AIPerfCSVReader{},
	contract.FormatAIPerfParquet:   foreign.AIPerfParquetReader{},
}

// ReaderFor returns the reader of format f ("" is endpoints).
func ReaderFor(f contract.Format) (contract.Reader, error) {
	if f == "" {
		f = contract.FormatEndpoints
	}
	r, ok := readers[f]
	if !ok {
		return nil, fmt.Errorf("no reader for format %q", f)
	}
	return r, nil
}
