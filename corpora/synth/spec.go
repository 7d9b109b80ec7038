package synth

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Load modes a Spec can simulate. They map to the upstream
// settings.load_pattern.type values concurrency, poisson, max_throughput and
// agentic_inference.
const (
	ModeConcurrency = "concurrency"
	ModePoisson     = "poisson"
	ModeOffline     = "offline"
	ModeAgentic     = "agentic"
)

// Step is a planted KV-cache-eviction level shift: every request issued at or
// after super-pass position AtSuperPass (tracked issues so far / dataset size)
// decodes Mult times slower than before.
type Step struct {
	AtSuperPass float64 `json:"at_sp"`
	Mult        float64 `json:"mult"`
}

// Spec describes one synthetic run. Zero values of the optional fields take the
// defaults listed on each field (applied by Generate through withDefaults).
type Spec struct {
	// Preset is the name written to truth.json; free text for hand-made specs.
	Preset string
	// Seed drives every random choice; the same Spec writes the same bytes.
	Seed uint64
	// Mode is one of ModeConcurrency, ModePoisson, ModeOffline, ModeAgentic.
	Mode string
	// Concurrency is the number of closed-loop clients (concurrency), of active
	// conversations (agentic), or the reference batch b_ref at which the planted
	// level holds (poisson; offline uses MaxBatch).
	Concurrency int
	// DatasetSize is N, the number of distinct samples per dataset pass and so the
	// super-pass size. Agentic runs derive it from their conversations.
	DatasetSize int
	// Passes is the planned number of dataset passes: round(Passes·N) tracked
	// issues. Agentic: trajectories = round(Passes·Conversations).
	Passes float64
	// OutputTokS is the service rate in output tokens per second at the reference
	// batch; the planted per-token time is level = b_ref / OutputTokS.
	OutputTokS float64
	// QPS is the Poisson arrival rate; 0 means 80 % of the server's capacity at
	// the reference batch.
	QPS float64
	// MaxBatch caps how many requests the server holds at once (offline admission
	// queue); 0 means Concurrency for offline runs and no cap otherwise.
	MaxBatch int
	// Model is model_params.name in config.yaml (default openai/gpt-oss-120b).
	Model string
	// TokenizerName is written as model_params.tokenizer_name (default
	// "words": the text is whitespace words, so zero-flag analyze counts
	// them without a Hugging Face tokenizer).
	TokenizerName string
	// OutputWords is the median planted output length in tokens (= words; default 60).
	OutputWords int
	// OutputSigma is the lognormal sigma of output lengths across dataset samples
	// (default 0.35).
	OutputSigma float64
	// OutputScale multiplies every output length, to make large logs (default 1).
	OutputScale float64
	// MaxNewTokens caps output lengths; capped answers finish with "length"
	// (default 1024).
	MaxNewTokens int
	// Reasoning streams answers as reasoning models do: output is the content
	// string, reasoning is [first_chunk, rest]. The content starts with a blank
	// line, so the text after the first chunk (rest + content) still holds
	// exactly tokens−1 words.
	Reasoning bool
	// PromptWords is the median prompt length in words (default 25).
	PromptWords int
	// BatchH0 is h0 in TPOT(b) = level·(h0 + (1−h0)·b/b_ref) (default 0.6).
	BatchH0 float64
	// RampSuperPasses staggers the closed-loop client starts so the batch fills
	// after about this many super-passes; 0 starts every client at once.
	RampSuperPasses float64
	// JitterSigma is the per-request relative TPOT jitter (default 0.03; negative
	// means none).
	JitterSigma float64
	// LevelNoiseSigma is the lognormal sigma of a level multiplier drawn per
	// noise epoch (NoiseEpochSP super-passes of tracked issues).
	LevelNoiseSigma float64
	// NoiseEpochSP is the length of a noise epoch in super-passes (default 1).
	NoiseEpochSP float64
	// RampFrom, when > 0, plants a TPOT ramp over the issue position
	// u = (pos+1)/N of the request at tracked position pos: the level is
	// multiplied by 1 − (1−RampFrom)·exp(−u/RampLenSP) (exponential, taken as
	// exactly 1 once within 1e-4 of it), or by RampFrom + (1−RampFrom)·
	// min(u/RampLenSP, 1) when RampLinear. RampFrom < 1 ramps up from below,
	// > 1 settles down from above. Unlike RampSuperPasses (a batch-fill
	// ramp, through BatchH0) it does not depend on the running batch.
	RampFrom   float64
	RampLenSP  float64
	RampLinear bool
	// WaveAmp, when > 0, plants a periodic oscillation around the level:
	// the level is multiplied by 1 + WaveAmp·sin(2π·x/WavePeriodSP), x the
	// issue position in super-passes (pos/N), so its mean over whole periods
	// is the level.
	WaveAmp      float64
	WavePeriodSP float64
	// Drift is the relative level change from the first to the last planned issue,
	// linear in issue position (+0.3 = 30 % slower at the end).
	Drift float64
	// Steps are planted KV-cache-eviction level shifts.
	Steps []Step
	// PrefillSlots is how many prompts the server prefills at once (default 4).
	PrefillSlots int
	// PrefillS, when > 0, is the prefill time in seconds of a prompt of the
	// median length (half fixed, half proportional to its words); 0 ties
	// prefill to the decode level (about half a decode step). Long prefills
	// with few slots make a prefill-bound server: closed loops then issue
	// about PrefillSlots/PrefillS requests per second whatever the
	// concurrency, and TTFT grows with it (long-context serving).
	PrefillS float64
	// PrefillDrift is the relative change of every prompt's prefill time
	// from the first to the last planned issue, linear in issue position
	// (−0.4 = 40 % less prefill work at the end: a prefix cache warming
	// up). TPOT is untouched.
	PrefillDrift float64
	// FailureRate is the fraction of requests that fail: 60 % as HTTP errors before
	// any chunk, 40 % mid-stream after the first chunk.
	FailureRate float64
	// DuplicateRate is the fraction of requests given a second ISSUED line (a
	// retry) 1–30 ms after the first.
	DuplicateRate float64
	// SingleChunkRate is the fraction of answers that are one chunk only (no text
	// after the first chunk, so no TPOT).
	SingleChunkRate float64
	// TruncateAt kills the run when this fraction of the planned issues has been
	// issued: no STOP, no ENDED, the last line cut in half, no sample_idx_map.json.
	TruncateAt float64
	// DrainTimeoutS is settings.drain.performance_timeout_s (default 240).
	DrainTimeoutS float64
	// MaxDurationS stops the performance phase after this many seconds (0 = no cap).
	MaxDurationS float64
	// Conversations is the number of source conversations of an agentic dataset
	// (default 40); each has 2..MaxTurns client turns (default 6).
	Conversations int
	MaxTurns      int
	// ToolDelayS is the mean delay between an agentic turn's answer and the next
	// turn (default 0.5 s).
	ToolDelayS float64
}

// withDefaults returns the spec with every zero optional field set to its
// documented default.
func (s Spec) withDefaults() Spec {
	defaultTo(&s.Model, "openai/gpt-oss-120b")
	defaultTo(&s.TokenizerName, "words")
	defaultTo(&s.OutputWords, 60)
	defaultTo(&s.OutputSigma, 0.35)
	defaultTo(&s.OutputScale, 1)
	defaultTo(&s.MaxNewTokens, 1024)
	defaultTo(&s.PromptWords, 25)
	defaultTo(&s.BatchH0, 0.6)
	defaultTo(&s.JitterSigma, 0.03)
	if s.JitterSigma < 0 {
		s.JitterSigma = 0
	}
	defaultTo(&s.PrefillSlots, 4)
	defaultTo(&s.NoiseEpochSP, 1)
	defaultTo(&s.DrainTimeoutS, 240)
	if s.Mode == ModeOffline && s.MaxBatch == 0 {
		s.MaxBatch = s.Concurrency
	}
	if s.Mode == ModeAgentic {
		defaultTo(&s.Conversations, 40)
		defaultTo(&s.MaxTurns, 6)
		defaultTo(&s.ToolDelayS, 0.5)
	}
	return s
}

// defaultTo sets *p to v when *p is its type's zero value (the field was
// left out of the spec).
func defaultTo[T comparable](p *T, v T) {
	var zero T
	if *p == zero {
		*p = v
	}
}

// validate reports every problem of a defaulted spec at once, naming fields and
// values.
func (s Spec) validate() error {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	switch s.Mode {
	case ModeConcurrency, ModePoisson, ModeOffline, ModeAgentic:
	default:
		bad("Mode %q is not one of %s, %s, %s, %s", s.Mode, ModeConcurrency, ModePoisson, ModeOffline, ModeAgentic)
	}
	if s.Concurrency < 1 {
		bad("Concurrency (%d) must be >= 1", s.Concurrency)
	}
	if s.Mode != ModeAgentic && s.DatasetSize < 1 {
		bad("DatasetSize (%d) must be >= 1", s.DatasetSize)
	}
	if !(s.Passes > 0) || math.IsInf(s.Passes, 0) {
		bad("Passes (%v) must be > 0", s.Passes)
	}
	if !(s.OutputTokS > 0) || math.IsInf(s.OutputTokS, 0) {
		bad("OutputTokS (%v) must be > 0", s.OutputTokS)
	}
	if s.QPS < 0 {
		bad("QPS (%v) must be >= 0", s.QPS)
	}
	if s.OutputWords < 2 {
		bad("OutputWords (%d) must be >= 2", s.OutputWords)
	}
	if s.OutputScale <= 0 {
		bad("OutputScale (%v) must be > 0", s.OutputScale)
	}
	if s.MaxNewTokens < 2 {
		bad("MaxNewTokens (%d) must be >= 2", s.MaxNewTokens)
	}
	if s.BatchH0 < 0 || s.BatchH0 > 1 {
		bad("BatchH0 (%v) must be in [0, 1]", s.BatchH0)
	}
	if s.JitterSigma > 0.2 {
		bad("JitterSigma (%v) must be <= 0.2 (clipped at 3σ, a request's TPOT must stay positive)", s.JitterSigma)
	}
	for _, r := range []struct {
		name string
		v    float64
	}{{"FailureRate", s.FailureRate}, {"DuplicateRate", s.DuplicateRate}, {"SingleChunkRate", s.SingleChunkRate}, {"TruncateAt", s.TruncateAt}} {
		if r.v < 0 || r.v >= 1 {
			bad("%s (%v) must be in [0, 1)", r.name, r.v)
		}
	}
	for i, st := range s.Steps {
		if !(st.Mult > 0) || st.AtSuperPass < 0 {
			bad("Steps[%d] (%+v) needs AtSuperPass >= 0 and Mult > 0", i, st)
		}
	}
	if s.RampFrom < 0 || (s.RampFrom > 0 && !(s.RampLenSP > 0)) {
		bad("RampFrom (%v) must be >= 0, with RampLenSP (%v) > 0 when set", s.RampFrom, s.RampLenSP)
	}
	if s.WaveAmp < 0 || s.WaveAmp >= 1 || (s.WaveAmp > 0 && !(s.WavePeriodSP > 0)) {
		bad("WaveAmp (%v) must be in [0, 1), with WavePeriodSP (%v) > 0 when set", s.WaveAmp, s.WavePeriodSP)
	}
	if !(s.NoiseEpochSP > 0) {
		bad("NoiseEpochSP (%v) must be > 0", s.NoiseEpochSP)
	}
	if s.PrefillS < 0 {
		bad("PrefillS (%v) must be >= 0", s.PrefillS)
	}
	if s.PrefillDrift <= -1 {
		bad("PrefillDrift (%v) must be > -1", s.PrefillDrift)
	}
	if s.Drift <= -1 {
		bad("Drift (%v) must be > -1", s.Drift)
	}
	if s.Mode == ModeAgentic && (s.Conversations < 1 || s.MaxTurns < 2) {
		bad("agentic needs Conversations >= 1 (%d) and MaxTurns >= 2 (%d)", s.Conversations, s.MaxTurns)
	}
	if len(problems) > 0 {
		return errors.New("synth: invalid spec: " + strings.Join(problems, "; "))
	}
	return nil
}

// referenceBatch is b_ref, the running batch at which the planted level holds.
func (s Spec) referenceBatch() int {
	if s.Mode == ModeOffline {
		return s.MaxBatch
	}
	return s.Concurrency
}

// levelNs is the planted per-token decode time at the reference batch, in ns.
func (s Spec) levelNs() float64 {
	return float64(s.referenceBatch()) / s.OutputTokS * 1e9
}
