package columnar

import (
	"context"
	"io"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/sidecar"
)

// The contract of the package: a run, its format, the Reader each format
// has, the decoded columns, the options and the errors. They are declared
// in columnar/contract, below the rooms that implement them
// (columnar/endpoints, columnar/foreign, columnar/sidecar, columnar/cache),
// and named here so that callers outside columnar need only this package.
type (
	Run           = contract.Run
	Format        = contract.Format
	Reader        = contract.Reader
	IngestOptions = contract.IngestOptions
	Loaded        = contract.Loaded
	Decoded       = contract.Decoded
	Table         = contract.Table
	Summary       = contract.Summary
	ParseError    = contract.ParseError

	TokenCounter          = scan.TokenCounter
	WhitespaceWordCounter = scan.WhitespaceWordCounter
	PendingCounter        = scan.PendingCounter

	DecodeOptions = endpoints.DecodeOptions
	Follower      = endpoints.Follower

	Sidecars = sidecar.Sidecars
)

// The formats (Run.Format), detected from a log's content.
const (
	FormatEndpoints       = contract.FormatEndpoints
	FormatEndpointsLegacy = contract.FormatEndpointsLegacy
	FormatAIPerf          = contract.FormatAIPerf
	FormatGuideLLM        = contract.FormatGuideLLM
	FormatVLLM            = contract.FormatVLLM
	FormatLMBench         = contract.FormatLMBench
	FormatAIPerfCSV       = contract.FormatAIPerfCSV
	FormatAIPerfParquet   = contract.FormatAIPerfParquet
	FormatLLMPerf         = contract.FormatLLMPerf
	FormatGenAIPerf       = contract.FormatGenAIPerf
	FormatInferencePerf   = contract.FormatInferencePerf
	FormatLoadGenTrace    = contract.FormatLoadGenTrace
	FormatSGLang          = contract.FormatSGLang
)

const (
	// SchemaVersion is the version of Schema (contract.SchemaVersion).
	SchemaVersion = contract.SchemaVersion
	// ColIssueNs and ColOutputTokens are columns of Schema.
	ColIssueNs      = contract.ColIssueNs
	ColOutputTokens = contract.ColOutputTokens
)

var (
	// Formats lists every format, in the order detection reports them.
	Formats = contract.Formats
	// Schema lists the columns of a Table.
	Schema = contract.Schema
	// ErrMemoryLimit is returned when a decode exceeds its memory limit.
	ErrMemoryLimit = contract.ErrMemoryLimit
	// ErrExpansion is returned for a compressed log refused as a bomb.
	ErrExpansion = contract.ErrExpansion
)

// DecodeReader decodes an endpoints events stream into dst
// (columnar/endpoints).
func DecodeReader(ctx context.Context, r io.Reader, opts DecodeOptions, dst *Decoded) error {
	return endpoints.DecodeReader(ctx, r, opts, dst)
}

// NewFollower returns a Follower of a growing endpoints events log
// (columnar/endpoints).
func NewFollower(opts DecodeOptions) *Follower { return endpoints.NewFollower(opts) }

// DefaultSuperpassSize is the super-pass size assumed for a run of n
// samples at the given concurrency when its dataset size is unknown.
func DefaultSuperpassSize(concurrency float64, n int) int {
	return contract.DefaultSuperpassSize(concurrency, n)
}

// SmallSuperpassWarning is the warning for a super-pass of s samples read
// from source, "" when s is large enough.
func SmallSuperpassWarning(s int, source string) string {
	return sidecar.SmallSuperpassWarning(s, source)
}

// GuideLLMBenchmarks counts the benchmarks of a GuideLLM report.
func GuideLLMBenchmarks(ctx context.Context, path string) (int, error) {
	return foreign.GuideLLMBenchmarks(ctx, path)
}

// CountResults counts the results appended to a vLLM or SGLang result file.
func CountResults(ctx context.Context, path string) (int, error) {
	return foreign.CountResults(ctx, path)
}

// RunParts is the number of runs in the file at path of format f, and
// whether they are named "path#N".
func RunParts(ctx context.Context, path string, f Format) (n int, named bool) {
	return foreign.RunParts(ctx, path, f)
}
