// Package synth generates synthetic benchmark run directories in the MLCommons
// endpoints layout, with a planted ground truth, so the steady-state detector can
// be tested and benchmarked against runs whose answer is known.
//
// A run comes from a small discrete-event queueing model, not from a curve:
//
//   - Closed-loop clients (concurrency C) each hold one slot of the server's running
//     batch from their first prefill until they leave. Clients start staggered,
//     so the batch fills over the first super-passes: that is the warmup ramp.
//
//   - The per-token decode time depends on the running batch b:
//
//     TPOT(b) = level · (h0 + (1−h0)·b/b_ref)
//
//     where level = b_ref / OutputTokS is the planted per-token time at the
//     reference batch (b_ref = C for closed loops). At b = b_ref the factor is
//     exactly 1, so a closed loop at full batch decodes at the planted level.
//     When the batch changes mid-request the request's progress rate changes with
//     it (a shared virtual work clock), so drains speed up naturally.
//
//   - Prefill runs on a few slots in FIFO order; its queue drives TTFT.
//
//   - Level changes are planted on top: a TPOT ramp (exponential or linear,
//     from below or above; independent of the batch), KV-cache eviction steps
//     (requests admitted after the step decode M times slower), a linear
//     drift, and lognormal level noise per epoch, all keyed by the request's
//     issue position.
//
//   - Prefill-bound servers (PrefillS seconds a prompt on PrefillSlots
//     slots, BatchH0 = 1) issue a few requests per second whatever the
//     concurrency, with TTFTs of seconds to minutes: the long-context
//     presets (LongContextPresets) and the accuracy suite last 10–40 minutes
//     of issue time with small files, so the 600 s min-duration gate binds.
//
//   - Open loops: Poisson arrivals at rate λ, offline bursts issued at t = 0 into a
//     server that admits at most MaxBatch requests, and agentic conversations whose
//     turns follow each other after a tool delay.
//
// Planted TPOT and the median. Each request's per-token time is
// level · (1 + ε) where ε comes in antithetic pairs (+e, −e) within a super-pass,
// e drawn from a normal distribution clipped at 3σ. The TPOTs of a super-pass in
// which every request decoded at full batch are therefore symmetric about the
// planted level, and their median (mean of the two middle values) equals it
// exactly, up to nanosecond rounding of the timestamps.
//
// Token counting. Every output is made of words from a fixed embedded list joined
// by ASCII whitespace. A request planted with T output tokens streams a first chunk
// of exactly one word and a rest of exactly T−1 whitespace-separated words, so
// len(rest.split()) in Python, strings.Fields in Go, counts T−1 and the measured
// TPOT = (complete − recv_first) / (T−1) is the planted per-token time.
//
// Files. events.jsonl follows the upstream EventRecord wire format
// (event-log.md §1): compact JSON, keys event_type, timestamp_ns, sample_uuid,
// conversation_id, turn, data (+ finish_reason, worker_id on sample.complete),
// full-length tagged payload arrays, uuid4 hex ids, monotonic-clock timestamps
// (epoch 3e13–2e14 ns). Lines are written in timestamp order, except that a
// failure's error.generic is published before its null-data sample.complete but
// stamped after it, as upstream does. sample.recv_non_first is never written
// (stream_all_chunks is off). config.yaml, run_meta.json and sample_idx_map.json
// mimic parity/runs byte layout; truth.json is Truth.
//
// Accuracy suite. AccuracySuite draws 120 runs over the classes of the shared
// accuracy set (clean, staircase incl. short tails, ramp-only bursts, drifts
// incl. short slow ones); GenerateSuite writes them in that set's layout with
// truth/NAME.json in its judge's schema (JudgeTruth), so
// shared/accuracy/judge.py scores them with its own definitions.
//
// Not modelled: warmup and accuracy phases, malformed lines, agentic turn
// timeouts, non-streaming runs.
//
// Everything is deterministic: the same Spec (seed included) writes byte-identical
// files. Randomness comes only from math/rand/v2 PCG sources seeded from the Spec.
package synth
