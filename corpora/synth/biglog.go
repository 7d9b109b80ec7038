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
// spec (concurrency, poisson or offline). The run is sized by bytes: it plans
// twice the issues an estimate says fill targetBytes (Passes is ignored; drift
// and step positions refer to that plan) and stops issuing when the file nears
// the target, then drains and ends the session normally. Lines are encoded and written as the
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
		// Plan twice the estimate; the byte budget below ends the run.
		spec.Passes = 2 * issues / float64(spec.DatasetSize)
	}
	if err := spec.validate(); err != nil {
		return err
	}
	lw := newLineWriter(w)
	s := newSim(spec, lw)
	// Issuing stops once the file reaches the target less what the requests
	// still in flight will add (their recv_first and COMPLETE lines).
	s.byteBudget = max(1, targetBytes-int64(float64(spec.referenceBatch())*perSample))
	s.start()
	s.run()
	if err := lw.close(); err != nil {
		return fmt.Errorf("synth: write log: %w", err)
	}
	return nil
}
