package synth

import (
	"fmt"
	"strconv"
	"strings"
)

// configYAML renders config.yaml the way upstream dumps its BenchmarkConfig
// (yaml.dump(sort_keys=False), nulls omitted), following parity/runs/*/config.yaml
// line for line: the keys, their order, the quoting of 'on' and '1.0', floats
// written with a decimal point.
func configYAML(s Spec, name string, qps float64, planned int) string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	benchName, runType := "concurrency_benchmark", "online"
	switch s.Mode {
	case ModePoisson:
		benchName = "online_benchmark"
	case ModeOffline:
		benchName, runType = "offline_benchmark", "offline"
	case ModeAgentic:
		benchName = "agentic_benchmark"
	}
	line("name: %s", benchName)
	line("version: '1.0'")
	line("type: %s", runType)
	line("model_params:")
	line("  name: %s", s.Model)
	if s.TokenizerName != "" {
		line("  tokenizer_name: %s", s.TokenizerName)
	}
	line("  max_new_tokens: %d", s.MaxNewTokens)
	line("  min_new_tokens: 1")
	line("  skip_special_tokens: true")
	line("  streaming: 'on'")
	line("datasets:")
	line("- name: perf")
	line("  type: performance")
	line("  path: /data/perf/%s.jsonl", name)
	if s.Mode == ModeAgentic {
		line("  format: jsonl")
		line("  agentic_inference:")
		line("    turn_timeout_s: 120.0")
		line("    enable_salt: false")
		line("    inject_tool_delay: true")
		line("    num_trajectories_to_issue: %d", s.trajectories())
		line("    stop_issuing_on_first_user_complete: false")
	} else {
		line("  parser:")
		line("    prompt: text_input")
	}
	line("settings:")
	line("  runtime:")
	line("    min_duration_ms: 600000")
	line("    max_duration_ms: %d", int64(s.MaxDurationS*1000))
	if s.Mode != ModeAgentic && s.Mode != ModePoisson {
		line("    n_samples_to_issue: %d", planned)
	}
	line("    scheduler_random_seed: 42")
	line("    dataloader_random_seed: 42")
	line("  load_pattern:")
	switch s.Mode {
	case ModeConcurrency:
		line("    type: concurrency")
		line("    target_concurrency: %d", s.Concurrency)
	case ModePoisson:
		line("    type: poisson")
		line("    target_qps: %s", pyFloat(qps))
		line("    use_legacy_loadgen_qps_metrics: true")
	case ModeOffline:
		line("    type: max_throughput")
	case ModeAgentic:
		line("    type: agentic_inference")
		line("    target_concurrency: %d", s.Concurrency)
	}
	line("  client:")
	line("    num_workers: 8")
	line("    log_level: INFO")
	line("    warmup_connections: -1")
	line("    max_connections: -1")
	line("    stream_all_chunks: false")
	line("    worker_gc_mode: relaxed")
	line("  drain:")
	line("    warmup_timeout_s: 240.0")
	if s.Mode != ModeOffline {
		line("    performance_timeout_s: %s", pyFloat(s.DrainTimeoutS))
	}
	line("    metrics_drain_timeout_s: 0.0")
	line("    metrics_tokenizer_workers: 4")
	line("  warmup:")
	line("    enabled: false")
	line("    salt: false")
	line("    drain: false")
	line("    warmup_random_seed: 42")
	line("  early_stopping:")
	line("    enabled: true")
	line("  service_ready_timeout_s: 30.0")
	line("endpoint_config:")
	line("  endpoints:")
	line("  - http://10.0.4.17:8000")
	line("  api_type: openai")
	line("verbose: false")
	line("enable_cpu_affinity: true")
	return b.String()
}

// pyFloat formats a float the way Python's repr (and PyYAML) does for the
// values used here: shortest round-trip digits, always with a decimal point.
func pyFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}
