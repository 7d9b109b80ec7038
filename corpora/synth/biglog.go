package synth

import (
	"errors"
	"fmt"
	"io"
	"math"
)

// Approximate bytes of one sample's lines besides its words: the ISSUED,
// recv_first and COMPLETE envelopes and payload framing.
const (
	sampleOverheadBytes = 480
	bytesPerWord        = 6.6
)

// GenerateLog streams one events.jsonl of about targetBytes to w, simulating
// spec (concurrency, poisson or offline; Passes is replaced by the number of
// issues that fill targetBytes). Lines are encoded and written as the
// simulation produces them, so memory stays at the per-request bookkeeping
// (about 200 bytes a request), not the text. Use OutputScale for long outputs.
func GenerateLog(w io.Writer, spec Spec, targetBytes int64) error {
	if targetBytes <= 0 {
		return fmt.Errorf("synth: target size %d must be > 0", targetBytes)
	}
	spec = spec.withDefaults()
	if spec.Mode == ModeAgentic {
		return errors.New("synth: GenerateLog supports concurrency, poisson and offline runs, not agentic")
	}
	perSample := sampleOverheadBytes + bytesPerWord*(spec.meanOutputTokens()+float64(spec.PromptWords))
	issues := math.Max(1, math.Round(float64(targetBytes)/perSample))
	if spec.DatasetSize > 0 {
		spec.Passes = issues / float64(spec.DatasetSize)
	}
	if err := spec.validate(); err != nil {
		return err
	}
	lw := newLineWriter(w)
	s := newSim(spec, lw)
	// The estimate above sizes the run; the budget stops issuing if the text
	// turns out longer, so the file stays near the target either way.
	s.byteBudget = targetBytes
	s.start()
	s.run()
	if err := lw.close(); err != nil {
		return fmt.Errorf("synth: write log: %w", err)
	}
	return nil
}
