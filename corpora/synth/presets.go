package synth

import (
	"fmt"
	"strings"
)

// preset is a named scenario: what it plants and the Spec that plants it.
type preset struct {
	name        string
	shape       string
	description string
	spec        func(seed uint64) Spec
}

// presets are the named scenarios, in the order Presets lists them. Service
// rates are chosen so the planted plateaus of the "steady" presets last longer
// than the detector's 600 s floor; GenerateCorpus overrides the rate.
var presets = []preset{
	{
		name:        "clean_ramp",
		shape:       "clean plateau after a short ramp",
		description: "Closed loop C=16; clients start staggered so the running batch fills over ~1.5 super-passes (TPOT ramps from h0=0.6x to 1.0x), then a flat plateau at the planted level with 3% antithetic per-request jitter.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 16, DatasetSize: 150, Passes: 18, OutputTokS: 220, RampSuperPasses: 1.5}
		},
	},
	{
		name:        "long_ramp",
		shape:       "long admission ramp, long reasoning outputs",
		description: "Closed loop C=8, reasoning answers of ~200 words; the clients start over ~9 super-passes, so TPOT climbs from 0.55x for most of a third of the run before the plateau.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 8, DatasetSize: 80, Passes: 28, OutputTokS: 160, RampSuperPasses: 9,
				BatchH0: 0.5, OutputWords: 200, OutputSigma: 0.3, Reasoning: true, Model: "deepseek-ai/DeepSeek-R1"}
		},
	},
	{
		name:        "late_staircase",
		shape:       "late KV-eviction staircase",
		description: "Closed loop C=8; flat plateau, then KV-cache eviction makes every request admitted from x=27.3 of 34 super-passes decode 1.22x slower.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 8, DatasetSize: 60, Passes: 34, OutputTokS: 110, RampSuperPasses: 0.7,
				Steps: []Step{{AtSuperPass: 27.3, Mult: 1.22}}}
		},
	},
	{
		name:        "two_staircases",
		shape:       "two KV-eviction steps",
		description: "Closed loop C=12; plateau, a 1.15x step at x=14.5 and a further 1.18x step at x=26.4 of 36 super-passes.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 12, DatasetSize: 80, Passes: 36, OutputTokS: 100, RampSuperPasses: 1,
				Steps: []Step{{AtSuperPass: 14.5, Mult: 1.15}, {AtSuperPass: 26.4, Mult: 1.18}}}
		},
	},
	{
		name:        "drift_up",
		shape:       "slow drift up",
		description: "Closed loop C=8; TPOT rises linearly by +35% from the first to the last of 40 super-passes; no plateau.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 8, DatasetSize: 50, Passes: 40, OutputTokS: 160, RampSuperPasses: 0.5, Drift: 0.35}
		},
	},
	{
		name:        "drift_down",
		shape:       "slow drift down",
		description: "Closed loop C=32; TPOT falls linearly by 25% over 24 super-passes; no plateau.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 32, DatasetSize: 120, Passes: 24, OutputTokS: 430, RampSuperPasses: 0.8, Drift: -0.25,
				Model: "Qwen/Qwen3-32B"}
		},
	},
	{
		name:        "hairball_tail",
		shape:       "long-output hairball tail",
		description: "Closed loop C=16, heavy-tailed outputs (median 800 words, lognormal sigma 0.9, cap 4096 -> finish_reason length). Long answers hold batch slots and pile up at the end; decode speeds up as the batch drains (h0=0.45) and a 90 s drain timeout cuts the longest stragglers: STOP and ENDED come before their COMPLETE.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 16, DatasetSize: 50, Passes: 10, OutputTokS: 180, RampSuperPasses: 0.7,
				BatchH0: 0.45, OutputWords: 800, OutputSigma: 0.9, MaxNewTokens: 4096, DrainTimeoutS: 90, Model: "deepseek-ai/DeepSeek-R1"}
		},
	},
	{
		name:        "noisy",
		shape:       "noisy, high super-pass CoV",
		description: "Closed loop C=24, flat planted level but 20% lognormal level noise per super-pass and 8% per-request jitter: every super-pass is flat, but the super-pass CoV is far above the 0.08 bound.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 24, DatasetSize: 100, Passes: 20, OutputTokS: 300, RampSuperPasses: 0.5,
				LevelNoiseSigma: 0.2, JitterSigma: 0.08}
		},
	},
	{
		name:        "ramp_only",
		shape:       "ramp-only degenerate (n_samples = concurrency)",
		description: "C=512 and 8 passes of 64 = 512 samples: every client issues once in the opening burst, prefill is serialised over 4 slots so TTFT grows through the run, the batch fills as prefills finish and then only drains. There is no steady state.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 512, DatasetSize: 64, Passes: 8, OutputTokS: 17000}
		},
	},
	{
		name:        "partial_dataset",
		shape:       "partial dataset (< 1 pass)",
		description: "Dataset of 400, only 300 samples issued: a single, partial super-pass.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 32, DatasetSize: 400, Passes: 0.75, OutputTokS: 640, RampSuperPasses: 0.3}
		},
	},
	{
		name:        "insufficient_passes",
		shape:       "insufficient passes",
		description: "Dataset of 300, 2.6 passes issued: two full super-passes after the ramp, fewer than the 4 a trend test needs.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 24, DatasetSize: 300, Passes: 2.6, OutputTokS: 480, RampSuperPasses: 0.4}
		},
	},
	{
		name:        "truncated",
		shape:       "run killed mid-way",
		description: "Closed loop C=32 planned for 30 passes, killed at 55% of its issues: no STOP, no ENDED, the last line cut in half (no trailing newline), no sample_idx_map.json; requests in flight at the kill have no COMPLETE.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 32, DatasetSize: 100, Passes: 30, OutputTokS: 330, RampSuperPasses: 1.2, TruncateAt: 0.55}
		},
	},
	{
		name:        "failures_retries",
		shape:       "failed samples and duplicate ISSUED retries",
		description: "Closed loop C=12, clean plateau; 4% of requests fail (60% HTTP 503 before any chunk, 40% mid-stream after the first chunk: error.generic then sample.complete with null data), 2.5% get a second ISSUED line 1-30 ms later (half with a second recv_first), 1% answer in a single chunk.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeConcurrency, Concurrency: 12, DatasetSize: 200, Passes: 13, OutputTokS: 180, RampSuperPasses: 0.8,
				FailureRate: 0.04, DuplicateRate: 0.025, SingleChunkRate: 0.01}
		},
	},
	{
		name:        "poisson_steady",
		shape:       "Poisson arrivals, steady",
		description: "Open loop at 80% of the server's capacity at b_ref=8; TPOT follows the fluctuating batch mildly (h0=0.85) around the planted level.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModePoisson, Concurrency: 8, DatasetSize: 100, Passes: 16, OutputTokS: 200, BatchH0: 0.85}
		},
	},
	{
		name:        "offline_burst",
		shape:       "offline burst (all issued at t0)",
		description: "max_throughput: every sample issued back-to-back at t0 (15-45 us apart); the server admits 192 at a time, so TTFT includes minutes of queueing.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeOffline, Concurrency: 192, MaxBatch: 192, DatasetSize: 250, Passes: 7, OutputTokS: 5500, Model: "deepseek-ai/DeepSeek-R1"}
		},
	},
	{
		name:        "agentic",
		shape:       "agentic multi-turn with tool calls",
		description: "agentic_inference: 40 source conversations of 2-6 client turns, 16 active conversations, 300 trajectories ('__repeat_k' ids); non-final turns answer with streamed tool calls, tool delays between turns; 1% of turns fail and abort the rest of their conversation (skipped turns: null PromptData, TurnAbortedByPriorFailure); STOP when the first conversation finishes after the last trajectory started, later turns untracked.",
		spec: func(seed uint64) Spec {
			return Spec{Mode: ModeAgentic, Concurrency: 16, Passes: 7.5, OutputTokS: 350, Conversations: 40, MaxTurns: 6, Model: "/models/Kimi-K3",
				FailureRate: 0.01}
		},
	},
	{
		name:        "long_context_clean",
		shape:       "long-context clean plateau (~20 min of issue time)",
		description: "Closed loop C=24 against a prefill-bound server (4 prefill slots, 3 s a prompt): ~1.3 requests/s whatever the concurrency, TTFT ~18 s, decode independent of the batch (h0=1). TPOT ramps linearly from 0.75x over 2.5 super-passes, then a plateau of ~15 super-passes (~1150 s), above the 600 s floor.",
		spec: func(seed uint64) Spec {
			return longContextPreset(Spec{Mode: ModeConcurrency, Concurrency: 24, DatasetSize: 100, Passes: 18, OutputTokS: 2000,
				RampFrom: 0.75, RampLenSP: 2.5, RampLinear: true})
		},
	},
	{
		name:        "long_context_staircase",
		shape:       "long-context late staircase",
		description: "Closed loop C=16, prefill-bound (~1.3 requests/s): linear ramp from 0.8x over 2 super-passes, a ~12-super-pass plateau (~850 s), then every request issued from x=14.5 of 22 decodes 1.25x slower.",
		spec: func(seed uint64) Spec {
			return longContextPreset(Spec{Mode: ModeConcurrency, Concurrency: 16, DatasetSize: 90, Passes: 22, OutputTokS: 1300,
				RampFrom: 0.8, RampLenSP: 2, RampLinear: true, Steps: []Step{{AtSuperPass: 14.5, Mult: 1.25}}})
		},
	},
	{
		name:        "long_context_short_tail",
		shape:       "long-context staircase with a 2-super-pass tail",
		description: "Closed loop C=20, prefill-bound (~1.3 requests/s), 150-sample super-passes: linear ramp from 0.8x over 2 super-passes, an 8-super-pass plateau (~930 s), then a 1.35x step at x=10 of 12: only two full super-passes after the shift.",
		spec: func(seed uint64) Spec {
			return longContextPreset(Spec{Mode: ModeConcurrency, Concurrency: 20, DatasetSize: 150, Passes: 12, OutputTokS: 1800,
				RampFrom: 0.8, RampLenSP: 2, RampLinear: true, Steps: []Step{{AtSuperPass: 10, Mult: 1.35}}})
		},
	},
	{
		name:        "long_context_drift_up",
		shape:       "long-context drift up",
		description: "Closed loop C=16, prefill-bound (~1.3 requests/s): TPOT rises linearly by 25% over 16 super-passes (~1250 s, about 12% per 600 s); no plateau.",
		spec: func(seed uint64) Spec {
			return longContextPreset(Spec{Mode: ModeConcurrency, Concurrency: 16, DatasetSize: 100, Passes: 16, OutputTokS: 1100, Drift: 0.25})
		},
	},
	{
		name:        "long_context_drift_down",
		shape:       "long-context drift down",
		description: "Closed loop C=32, prefill-bound (~1.3 requests/s): TPOT falls linearly by 22% over 14 super-passes of 120 (~1300 s); no plateau.",
		spec: func(seed uint64) Spec {
			return longContextPreset(Spec{Mode: ModeConcurrency, Concurrency: 32, DatasetSize: 120, Passes: 14, OutputTokS: 2600, Drift: -0.22})
		},
	},
	{
		name:        "long_context_poisson",
		shape:       "long-context Poisson arrivals, steady",
		description: "Open loop at 1.0 requests/s into a server with 4 prefill slots of 2 s (50% utilised): TPOT ramps linearly from 0.8x over 1.5 super-passes of 80, then a ~1100 s plateau.",
		spec: func(seed uint64) Spec {
			s := longContextPreset(Spec{Mode: ModePoisson, Concurrency: 8, DatasetSize: 80, Passes: 16, OutputTokS: 600, QPS: 1.0,
				RampFrom: 0.8, RampLenSP: 1.5, RampLinear: true})
			s.PrefillS = 2
			return s
		},
	},
}

// longContextPreset completes a long-context preset: a prefill-bound server
// (4 prefill slots, 3 s a median prompt), decode independent of the batch,
// 20-word answers, 0.4 % level noise per super-pass. Its runs issue about
// 1.3 requests/s however the concurrency or service rate is swept, so they
// last 20–30 minutes of issue time and their plateaus clear the 600 s
// min-duration floor.
func longContextPreset(s Spec) Spec {
	s.BatchH0, s.PrefillSlots, s.PrefillS = 1, 4, 3
	s.OutputWords, s.LevelNoiseSigma = 20, 0.004
	return s
}

// LongContextPresets returns the presets whose runs last ≥ 600 s of issue
// time (plateaus included), the ones that exercise the min-duration gate.
func LongContextPresets() []string {
	var out []string
	for _, p := range presets {
		if strings.HasPrefix(p.name, "long_context_") {
			out = append(out, p.name)
		}
	}
	return out
}

func presetByName(name string) (preset, bool) {
	for _, p := range presets {
		if p.name == name {
			return p, true
		}
	}
	return preset{}, false
}

// Presets returns the preset names in a fixed order:
//
//	clean_ramp           admission ramp (~1.5 super-passes), then a long flat plateau → steady
//	long_ramp            reasoning answers, clients start over ~9 super-passes → steady after a long crop
//	late_staircase       KV-eviction step ×1.22 at 27.3 of 34 super-passes → anomaly
//	two_staircases       steps ×1.15 at 14.5 and ×1.18 at 26.4 of 36 → anomaly
//	drift_up             TPOT +35 % linearly over the run → drifting_up
//	drift_down           TPOT −25 % linearly over the run → drifting_down
//	hairball_tail        heavy-tailed long outputs, drain timeout cuts stragglers → steady
//	noisy                20 % per-super-pass level noise → not_found
//	ramp_only            n_samples = concurrency = 512: fill and drain only → not_found
//	partial_dataset      300 issues of a 400-sample dataset → partial_dataset
//	insufficient_passes  2.6 passes → insufficient_passes
//	truncated            killed at 55 %: no STOP/ENDED, cut last line → steady (best effort)
//	failures_retries     4 % failures, 2.5 % duplicate ISSUED, 1 % single-chunk answers → steady
//	poisson_steady       open loop at 80 % of capacity → steady
//	offline_burst        everything issued at t0 into a 192-request server → not_supported
//	agentic              multi-turn tool-calling conversations → not_supported
//	long_context_clean       prefill-bound, ~20 min: ramp then a ~1150 s plateau → steady
//	long_context_staircase   ~850 s plateau, ×1.25 at 14.5 of 22 → anomaly
//	long_context_short_tail  ~930 s plateau, ×1.35 with a 2-super-pass tail → anomaly
//	long_context_drift_up    +25 % over ~1250 s → drifting_up
//	long_context_drift_down  −22 % over ~1300 s → drifting_down
//	long_context_poisson     Poisson 1 request/s, ~1100 s plateau → steady
//
// truth.json's description field has the details of each.
func Presets() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}

// PresetSpec returns the Spec of the named preset with the given seed. An unknown
// name is an error listing the valid names.
func PresetSpec(name string, seed uint64) (Spec, error) {
	p, ok := presetByName(name)
	if !ok {
		return Spec{}, fmt.Errorf("synth: unknown preset %q (valid: %s)", name, strings.Join(Presets(), ", "))
	}
	s := p.spec(seed)
	s.Preset, s.Seed = name, seed
	return s, nil
}
