package synth

import (
	"math"
	"math/rand/v2"
)

// agenticState is filled in by the agentic model.
type agenticState struct {
	toolCallOutputs, timeouts, skipped int
}

func prepareAgentic(spec Spec) (*agenticState, Spec, error) {
	if spec.Mode != ModeAgentic {
		return nil, spec, nil
	}
	return &agenticState{}, spec, nil
}

func (s Spec) trajectories() int { return max(1, int(math.Round(s.Passes*float64(s.Conversations)))) }

func (a *agenticState) truth() *AgenticTruth                               { return &AgenticTruth{} }
func (a *agenticState) start(s *sim)                                       {}
func (a *agenticState) prepareTurn(s *sim, id int32)                       {}
func (a *agenticState) outputWords(s *sim, id int32) float64               { return float64(s.spec.OutputWords) }
func (a *agenticState) turnDone(s *sim, id int32)                          {}
func (a *agenticState) conversationID(traj int32) string                   { return "" }
func (a *agenticState) appendPromptData(s *sim, b []byte, id int32) []byte { return b }
func (a *agenticState) appendOutput(s *sim, b []byte, id int32, rng *rand.Rand) ([]byte, string) {
	return b, ""
}
