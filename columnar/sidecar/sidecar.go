package sidecar

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// Sidecars holds the parsed sidecar files of a run (event-log spec §2).
// A nil pointer means the file was absent or unreadable.
type Sidecars struct {
	Config        *Config
	RunMeta       *RunMeta
	SampleIndex   *SampleIndex
	ResultSummary *ResultSummary
	FinalSnapshot *FinalSnapshot
}

// Config is what the steady-state engine reads from config.yaml.
type Config struct {
	// Type is the benchmark type: offline, online, eval or submission.
	Type string
	// Model is model_params.name; TokenizerName model_params.tokenizer_name.
	Model, TokenizerName string
	// Streaming is model_params.streaming as written ("on", "off", "").
	Streaming string
	// LoadPattern is the load pattern type (reference rule, detector spec
	// §2.2); TargetConcurrency and TargetQPS its targets (0 when absent).
	LoadPattern       string
	TargetConcurrency int
	TargetQPS         float64
	// MinDurationMs, MaxDurationMs and NSamplesToIssue are from
	// settings.runtime (-1 when absent).
	MinDurationMs, MaxDurationMs float64
	NSamplesToIssue              int
	// Warmup is settings.warmup.
	Warmup WarmupConfig
	// Datasets lists the configured datasets.
	Datasets []DatasetConfig
	// APIType is endpoint_config.api_type; Endpoints its endpoints.
	APIType   string
	Endpoints []string
}

// WarmupConfig is settings.warmup. NRequests is -1 when unset (one full
// dataset pass).
type WarmupConfig struct {
	Enabled, Salt, Drain bool
	NRequests            int
}

// DatasetConfig is one entry of datasets[].
type DatasetConfig struct {
	Name, Type, Path string
	// Agentic reports an agentic_inference block; NumTrajectories is its
	// num_trajectories_to_issue (0 when absent).
	Agentic         bool
	NumTrajectories int
}

// RunMeta is run_meta.json.
type RunMeta struct {
	// DatasetSize is Python int() of a truthy dataset_size, 0 otherwise.
	DatasetSize int
}

// ResultSummary is performance/result_summary.json (or the older
// top-level result_summary.json).
type ResultSummary struct {
	Version, GitSHA string
	// RunConfig is the run_config object (nil when null).
	RunConfig map[string]any
	// Percentiles maps a series ("ttft", "tpot", "latency", …) to its
	// percentile grid, keys parsed to numbers, highest first.
	Percentiles map[string][]Percentile
	// NSamplesIssued, NSamplesCompleted, NSamplesFailed are the tracked counters.
	NSamplesIssued, NSamplesCompleted, NSamplesFailed int64
}

// Percentile is one grid entry: the key as written, its numeric value
// and the reported value (NaN when null).
type Percentile struct {
	Key   string
	P     float64
	Value float64
}

// Lookup returns the value at percentile p (matched numerically, so 99,
// "99" and "99.0" are the same key).
func (r *ResultSummary) Lookup(series string, p float64) (float64, bool) {
	for _, e := range r.Percentiles[series] {
		if e.P == p {
			return e.Value, true
		}
	}
	return 0, false
}

// FinalSnapshot is metrics/final_snapshot.json.
type FinalSnapshot struct {
	State         string
	NPendingTasks int64
	// Counters maps counter names to values.
	Counters map[string]float64
}

// sidecarRun is a run's sidecars being read: the facts they give (Info),
// the parsed files (Sidecars) and the warnings about them.
type sidecarRun struct {
	ctx      context.Context // ends a long parse (sample_idx_map.json)
	memo     ConfigMemo      // config.yaml's documents read before (nil: none)
	Dir      string
	Info     core.RunInfo
	Sidecars Sidecars
	Warnings []string
}

func (r *sidecarRun) Warnf(format string, args ...any) {
	r.Warnings = append(r.Warnings, OneLine(fmt.Sprintf(format, args...)))
}

// OneLine makes msg one line (a YAML decoder's error spans several).
func OneLine(msg string) string {
	if strings.Contains(msg, "\n") {
		lines := strings.Split(msg, "\n")
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		msg = strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "" }), " ")
	}
	return msg
}

// ReadSidecars reads the sidecars of the run in dir, completing info
// (detector spec §2.1): it returns info completed, the parsed sidecars and
// a warning per missing-but-expected or malformed sidecar. Once ctx is
// done it reads no further and what it returns is incomplete: the caller
// looks at ctx.Err().
func ReadSidecars(ctx context.Context, dir string, info core.RunInfo) (core.RunInfo, Sidecars, []string) {
	return ReadSidecarsMemo(ctx, dir, info, nil)
}

// ReadSidecarsMemo is ReadSidecars taking config.yaml's Config from memo
// when it holds one for the file's bytes, and recording it there when
// not (nil: parsed every time, as ReadSidecars does).
func ReadSidecarsMemo(ctx context.Context, dir string, info core.RunInfo, memo ConfigMemo) (core.RunInfo, Sidecars, []string) {
	r := &sidecarRun{ctx: ctx, memo: memo, Dir: dir, Info: info}
	r.read()
	return r.Info, r.Sidecars, r.Warnings
}

func (r *sidecarRun) read() {
	r.Info.Streaming = true
	r.readConfig(filepath.Join(r.Dir, "config.yaml"))
	r.readRunMeta(filepath.Join(r.Dir, "run_meta.json"))
	r.readSampleIndex(filepath.Join(r.Dir, "sample_idx_map.json"))
	if r.ctx.Err() != nil {
		return
	}
	for _, p := range []string{filepath.Join(r.Dir, "performance", "result_summary.json"), filepath.Join(r.Dir, "result_summary.json")} {
		if r.readResultSummary(p) {
			break
		}
	}
	r.readFinalSnapshot(filepath.Join(r.Dir, "metrics", "final_snapshot.json"))
	r.resolveDatasetSize()
}

// sidecarLimit bounds each sidecar's size (package safeopen): a sidecar
// that is a FIFO, a device or larger than its limit is a warning, never a
// hang or an out-of-memory crash. Any other file (result_summary.json,
// final_snapshot.json) has the summaries' limit.
func sidecarLimit(name string) int64 {
	switch name {
	case "config.yaml":
		return safeopen.LimitConfig
	case "run_meta.json":
		return safeopen.LimitRunMeta
	case "sample_idx_map.json":
		return safeopen.LimitSampleIndex
	}
	return safeopen.LimitSummary
}

// readSidecar returns the file's bytes; absence is silent (ok=false).
func (r *sidecarRun) readSidecar(path string) ([]byte, bool) {
	name := filepath.Base(path)
	b, err := safeopen.ReadFile(path, name, sidecarLimit(name))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			r.Warnf("%v; ignored", sidecarError(path, err))
		}
		return nil, false
	}
	return b, true
}

// sidecarError makes err one line that names path once.
func sidecarError(path string, err error) error {
	var se *safeopen.Error
	var pe *fs.PathError
	switch {
	case errors.As(err, &se):
		return err
	case errors.As(err, &pe):
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

func (r *sidecarRun) readConfig(path string) {
	b, ok := r.readSidecar(path)
	if !ok {
		return
	}
	if r.memo != nil {
		if c, ok := r.memo.Parsed(b); ok {
			r.useConfig(c)
			return
		}
	}
	warned := len(r.Warnings)
	c := r.parseConfig(path, b)
	if c == nil {
		return
	}
	// A document read with warnings is parsed again next time, to say
	// them (they name the file, which the memo does not know).
	if r.memo != nil && len(r.Warnings) == warned {
		r.memo.Remember(b, c)
	}
	r.useConfig(c)
}

// parseConfig reads config.yaml's bytes b (path names it in warnings):
// nil, with a warning, when it is no YAML mapping.
func (r *sidecarRun) parseConfig(path string, b []byte) *Config {
	var doc any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		r.Warnf("%s: malformed YAML, ignored: %v", path, err)
		return nil
	}
	top, ok := doc.(map[string]any)
	if !ok {
		if doc != nil {
			r.Warnf("%s: top level is not a mapping, ignored", path)
		}
		return nil
	}
	c := &Config{MinDurationMs: -1, MaxDurationMs: -1, NSamplesToIssue: -1, Warmup: WarmupConfig{NRequests: -1}}
	c.Type = str(top["type"])
	if mp, ok := mapping(r, path, "model_params", top["model_params"]); ok {
		c.Model = str(mp["name"])
		c.TokenizerName = str(mp["tokenizer_name"])
		c.Streaming = str(mp["streaming"])
		if v, isBool := mp["streaming"].(bool); isBool { // YAML 1.1 on/off
			c.Streaming = map[bool]string{true: "on", false: "off"}[v]
		}
	}
	settings, _ := mapping(r, path, "settings", top["settings"])
	// Reference rule: settings.load_pattern if truthy, else load_pattern.
	lp := settings["load_pattern"]
	if !pyTruthy(lp) {
		lp = top["load_pattern"]
	}
	if m, ok := lp.(map[string]any); ok {
		key := "load_pattern"
		if pyTruthy(settings["load_pattern"]) {
			key = "settings.load_pattern"
		}
		c.LoadPattern = str(m["type"])
		c.TargetConcurrency = r.intNum(path, key+".target_concurrency", m["target_concurrency"], 0)
		c.TargetQPS = r.finiteNum(path, key+".target_qps", m["target_qps"], 0)
	}
	if rt, ok := mapping(r, path, "settings.runtime", settings["runtime"]); ok {
		c.MinDurationMs = r.finiteNum(path, "settings.runtime.min_duration_ms", rt["min_duration_ms"], -1)
		c.MaxDurationMs = r.finiteNum(path, "settings.runtime.max_duration_ms", rt["max_duration_ms"], -1)
		c.NSamplesToIssue = r.intNum(path, "settings.runtime.n_samples_to_issue", rt["n_samples_to_issue"], -1)
	}
	if w, ok := mapping(r, path, "settings.warmup", settings["warmup"]); ok {
		c.Warmup.Enabled, _ = w["enabled"].(bool)
		c.Warmup.Salt, _ = w["salt"].(bool)
		c.Warmup.Drain, _ = w["drain"].(bool)
		c.Warmup.NRequests = r.intNum(path, "settings.warmup.n_requests", w["n_requests"], -1)
	}
	if ds, ok := top["datasets"].([]any); ok {
		for i, e := range ds {
			m, ok := e.(map[string]any)
			if !ok {
				r.Warnf("%s: datasets[%d] is not a mapping, ignored", path, i)
				continue
			}
			d := DatasetConfig{Name: str(m["name"]), Type: str(m["type"]), Path: str(m["path"])}
			if ai, ok := m["agentic_inference"].(map[string]any); ok {
				d.Agentic = true
				d.NumTrajectories = r.intNum(path, fmt.Sprintf("datasets[%d].agentic_inference.num_trajectories_to_issue", i), ai["num_trajectories_to_issue"], 0)
			}
			c.Datasets = append(c.Datasets, d)
		}
	}
	if ec, ok := top["endpoint_config"].(map[string]any); ok {
		c.APIType = str(ec["api_type"])
		if eps, ok := ec["endpoints"].([]any); ok {
			for _, e := range eps {
				if u := str(e); u != "" {
					c.Endpoints = append(c.Endpoints, u)
				}
			}
		}
	}
	return c
}

// useConfig makes c the run's Config and completes the run's facts from
// it.
func (r *sidecarRun) useConfig(c *Config) {
	r.Sidecars.Config = c
	info := &r.Info
	info.Model = c.Model
	if info.Model == "" {
		info.Model = c.TokenizerName
	}
	info.DatasetName = c.performanceDataset()
	info.Endpoint = EndpointLabel(c.APIType, c.Endpoints...)
	info.LoadPattern = c.LoadPattern
	switch c.LoadPattern {
	case "concurrency", "agentic_inference":
		info.Concurrency = c.TargetConcurrency
	}
	info.TargetQPS = c.TargetQPS
	info.Streaming = c.Streaming != "off"
	if c.MinDurationMs > 0 {
		info.MinDurationS = c.MinDurationMs / 1000
	}
	if c.MaxDurationMs > 0 {
		info.MaxDurationS = c.MaxDurationMs / 1000
	}
}

// performanceDataset is the name of the first performance dataset (the
// first dataset when none is typed so), "" without datasets.
func (c *Config) performanceDataset() string {
	for _, d := range c.Datasets {
		if d.Type == "performance" {
			return d.Name
		}
	}
	if len(c.Datasets) > 0 && c.Datasets[0].Type == "" {
		return c.Datasets[0].Name
	}
	return ""
}

// mapping reads a YAML value that should be a mapping: nil/falsy reads
// as empty; a truthy non-mapping is a warning (the reference crashes).
func mapping(r *sidecarRun, path, key string, v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, true
	}
	if pyTruthy(v) {
		r.Warnf("%s: %s is not a mapping, ignored", path, key)
	}
	return nil, false
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// Num reads an int or float YAML/JSON value.
func Num(v any, def float64) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float64:
		return x
	case json.Number:
		f, err := x.Float64()
		if err == nil {
			return f
		}
	}
	return def
}

// finiteNum is num for a config value that must be a finite number: YAML's
// .inf, -.inf and .nan are a warning naming the file and the key, and the
// key reads as absent (def) — the run is still analysed.
func (r *sidecarRun) finiteNum(path, key string, v any, def float64) float64 {
	f := Num(v, def)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		r.Warnf("%s: %s is %v, not a finite number; ignored", path, key, f)
		return def
	}
	return f
}

// intNum is finiteNum for an integer key: a value beyond ±2⁵³ (or not
// finite) is a warning and reads as def, rather than an arbitrary int.
func (r *sidecarRun) intNum(path, key string, v any, def int) int {
	f := r.finiteNum(path, key, v, float64(def))
	if math.Abs(f) > 1<<53 {
		r.Warnf("%s: %s is %v, out of range; ignored", path, key, f)
		return def
	}
	return int(f)
}

// pyTruthy is Python truthiness of a decoded YAML/JSON value.
func pyTruthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case int:
		return x != 0
	case int64:
		return x != 0
	case uint64:
		return x != 0
	case float64:
		return x != 0
	case json.Number:
		f, _ := x.Float64()
		return f != 0
	case map[string]any:
		return len(x) > 0
	case []any:
		return len(x) > 0
	}
	return true
}

func (r *sidecarRun) readRunMeta(path string) {
	b, ok := r.readSidecar(path)
	if !ok {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		r.Warnf("%s: malformed JSON, ignored: %v", path, err)
		return
	}
	meta := &RunMeta{}
	r.Sidecars.RunMeta = meta
	m, ok := doc.(map[string]any)
	if !ok {
		r.Warnf("%s: not a JSON object, ignored", path)
		return
	}
	v := m["dataset_size"]
	if !pyTruthy(v) {
		return
	}
	// Python int(): "200" → 200, 200.9 → 200, true → 1.
	switch x := v.(type) {
	case bool:
		meta.DatasetSize = 1
	case json.Number:
		if n, err := x.Int64(); err == nil {
			meta.DatasetSize = int(n)
		} else if f, err := x.Float64(); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) <= 1<<53 {
			meta.DatasetSize = int(f)
		} else {
			r.Warnf("%s: dataset_size %s is out of range, ignored", path, x)
			return
		}
	case string:
		n, err := strconv.Atoi(trimPySpace(x))
		if err != nil {
			r.Warnf("%s: dataset_size %q is not an integer, ignored", path, x)
			return
		}
		meta.DatasetSize = n
	default:
		r.Warnf("%s: dataset_size has type %T, ignored", path, v)
	}
	if meta.DatasetSize < 0 {
		r.Warnf("%s: dataset_size %d is negative, ignored", path, meta.DatasetSize)
	}
}

func trimPySpace(s string) string { return string(scan.PyStrip([]byte(s))) }

func (r *sidecarRun) readResultSummary(path string) bool {
	b, ok := r.readSidecar(path)
	if !ok {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		r.Warnf("%s: malformed JSON, ignored: %v", path, err)
		return true
	}
	rs := &ResultSummary{
		Version:     str(doc["version"]),
		GitSHA:      str(doc["git_sha"]),
		Percentiles: make(map[string][]Percentile),
	}
	rs.RunConfig, _ = doc["run_config"].(map[string]any)
	rs.NSamplesIssued = int64(Num(doc["n_samples_issued"], 0))
	rs.NSamplesCompleted = int64(Num(doc["n_samples_completed"], 0))
	rs.NSamplesFailed = int64(Num(doc["n_samples_failed"], 0))
	for series, v := range doc {
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		grid, ok := m["percentiles"].(map[string]any)
		if !ok {
			continue
		}
		var ps []Percentile
		for key, val := range grid {
			p, err := strconv.ParseFloat(key, 64)
			if err != nil {
				r.Warnf("%s: %s percentile key %q is not a number, ignored", path, series, key)
				continue
			}
			ps = append(ps, Percentile{Key: key, P: p, Value: Num(val, math.NaN())})
		}
		sort.Slice(ps, func(i, j int) bool { return ps[i].P > ps[j].P })
		rs.Percentiles[series] = ps
	}
	r.Sidecars.ResultSummary = rs
	return true
}

func (r *sidecarRun) readFinalSnapshot(path string) {
	b, ok := r.readSidecar(path)
	if !ok {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		r.Warnf("%s: malformed JSON, ignored: %v", path, err)
		return
	}
	fs := &FinalSnapshot{State: str(doc["state"]), NPendingTasks: int64(Num(doc["n_pending_tasks"], 0)), Counters: map[string]float64{}}
	if ms, ok := doc["metrics"].([]any); ok {
		for _, e := range ms {
			m, ok := e.(map[string]any)
			if !ok || str(m["type"]) != "counter" {
				continue
			}
			fs.Counters[str(m["name"])] = Num(m["value"], math.NaN())
		}
	}
	r.Sidecars.FinalSnapshot = fs
}

// SuperpassWarnBelow is the smallest super-pass size taken without a
// warning: a super-pass's percentiles need a few samples, and a size of 1
// (a dataset_size of 1, a sample_idx_map.json whose indices are all 0)
// makes a super-pass of every sample — tens of thousands of them, each
// statistic over one value.
const SuperpassWarnBelow = 4

// SmallSuperpassWarning is the warning for a super-pass size s below
// SuperpassWarnBelow, from source ("run_meta.json", "--superpass-size"); ""
// when s is large enough (or unset).
func SmallSuperpassWarning(s int, source string) string {
	if s <= 0 || s >= SuperpassWarnBelow {
		return ""
	}
	return fmt.Sprintf("%s: super-pass size %d is below %d: each super-pass statistic rests on %d value(s), and a run of N samples has N/%d super-passes; pass --superpass-size (or --dataset-size) with the dataset's real size",
		source, s, SuperpassWarnBelow, s, s)
}

// resolveDatasetSize applies the order of detector spec §2.6 for the
// sidecars: run_meta.json's dataset_size, else sample_idx_map.json's
// largest performance index + 1.
func (r *sidecarRun) resolveDatasetSize() {
	if m := r.Sidecars.RunMeta; m != nil && m.DatasetSize > 0 {
		r.Info.DatasetSize, r.Info.DatasetSizeSource = m.DatasetSize, "run_meta.json"
		if w := SmallSuperpassWarning(m.DatasetSize, filepath.Join(r.Dir, "run_meta.json")); w != "" {
			r.Warnf("%s", w)
		}
		return
	}
	if si := r.Sidecars.SampleIndex; si != nil && si.MaxIndex >= 0 {
		r.Info.DatasetSize = int(si.MaxIndex + 1)
		r.Info.DatasetSizeSource = "sample_idx_map.json"
		path := filepath.Join(r.Dir, "sample_idx_map.json")
		if n := si.Len(); int64(n) < si.MaxIndex+1 {
			r.Warnf("%s: fewer entries (%d) than max index + 1 (%d): dataset size may be underestimated",
				path, n, si.MaxIndex+1)
		}
		if w := SmallSuperpassWarning(r.Info.DatasetSize, path); w != "" {
			r.Warnf("%s", w)
		}
		return
	}
	r.Warnf("%s: dataset size not found (no run_meta.json dataset_size, no sample_idx_map.json)", r.Dir)
}

// String renders a short description of the config for messages.
func (c *Config) String() string {
	return fmt.Sprintf("model=%q load_pattern=%q streaming=%q", c.Model, c.LoadPattern, c.Streaming)
}
