package contract

import (
	"errors"

	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// Default sizes of the decoder.
const (
	DefaultBlockSize   = 256 << 10
	DefaultMaxLineSize = 64 << 20
)

// ErrMemoryLimit reports a log whose samples need more memory than
// DecodeOptions.MemoryLimit allows.
var ErrMemoryLimit = errors.New("memory limit exceeded")

// FullTokensMode selects when the agentic full-output count is taken.
type FullTokensMode uint8

// FullTokens modes.
const (
	FullAuto FullTokensMode = iota
	FullAlways
	FullNever
)

// Decoded is the result of decoding one events stream: the tracked
// samples in issue order and the stream's summary.
type Decoded struct {
	Samples core.Samples
	Summary Summary
	// TextBytes is, per sample, the byte length of the output text after
	// the first chunk (-1 when not applicable, as for OutTokens).
	TextBytes []int64

	Keys          [][16]byte       // packed hex uuid per sample (zero for ext ones)
	Ext           map[int32]string // uuids that are not 32 lowercase hex digits
	UncountedRows []int32          // samples whose OutTokens await a counting pass
	// HashedSHA256 is the events file's hash when decodeRun computed it.
	HashedSHA256 string
	// HashedKey is its content key (NewContentKey) when decodeRun computed it.
	HashedKey string
	Index     scan.UUIDIndex // kept for reuse across decodes
	// ErrCauses are the causes the error events' texts name (HTTP status,
	// timeout, cancellation), by sample.
	ErrCauses map[int32]ErrCause
}

// Reset empties d, keeping the capacity of its columns.
func (d *Decoded) Reset() {
	EmptySamples(&d.Samples)
	d.Summary = Summary{}
	d.Keys = d.Keys[:0]
	d.Ext = nil
	d.HashedSHA256, d.HashedKey = "", ""
	d.TextBytes = d.TextBytes[:0]
	d.UncountedRows = d.UncountedRows[:0]
	d.ErrCauses = nil
}

// UUID returns the sample_uuid of sample i.
func (d *Decoded) UUID(i int) string {
	if s, ok := d.Ext[int32(i)]; ok {
		return s
	}
	return scan.UnpackHex(d.Keys[i])
}

// Uncounted returns the samples whose post-first-chunk text was left
// uncounted (DecodeOptions.SkipTextCounts).
func (d *Decoded) Uncounted() []int32 { return d.UncountedRows }

func Cmp0(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// ErrCause is the failure kind and code an error event's text names; the
// zero value names nothing specific (FailNone).
type ErrCause struct {
	Kind core.FailureKind
	Code int32
}

// EmptySamples resets every column of s to length 0, keeping capacity.
func EmptySamples(s *core.Samples) {
	*s = core.Samples{
		IssueNs: s.IssueNs[:0], LastIssueNs: s.LastIssueNs[:0], LastEventNs: s.LastEventNs[:0],
		HasFirstToken: s.HasFirstToken[:0], FirstTokenNs: s.FirstTokenNs[:0], TTFTNs: s.TTFTNs[:0],
		WarmTTFT: s.WarmTTFT[:0], FirstTokenSeq: s.FirstTokenSeq[:0],
		HasComplete: s.HasComplete[:0], CompleteNs: s.CompleteNs[:0], LatencyNs: s.LatencyNs[:0],
		CompleteSeq: s.CompleteSeq[:0], OutTokens: s.OutTokens[:0], FullTokens: s.FullTokens[:0],
		Failed: s.Failed[:0], Retries: s.Retries[:0], ConversationID: s.ConversationID[:0], Turn: s.Turn[:0],
	}
}
