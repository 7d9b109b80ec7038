package foreign

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
	"github.com/steadysweep/steadysweep/core"
)

// AIPerfParquetReader reads profile_export.parquet, the per-record
// Parquet the AIPerf Rust port writes beside profile_export.jsonl
// (artifacts.records: [parquet]; ai-dynamo/aiperf
// rust/runtime/src/export/per_record_parquet.rs @
// e21c44edc6863a00bd1730c00ac6ecdd8930a458, build_schema and
// build_metadata): one row per request, in completion order;
//
//	session_num int64, x_request_id utf8, x_correlation_id utf8,
//	conversation_id utf8?, turn_index int64, credit_issued_ns int64?,
//	request_start_ns int64, request_ack_ns int64?, request_end_ns int64,
//	worker_id utf8, global_dispatch_index int64?, record_processor_id utf8,
//	benchmark_phase utf8, was_cancelled bool, cancellation_time_ns int64?,
//	one float64? column per catalog record metric, named by its tag
//	(time_to_first_token, request_latency, output_sequence_length,
//	reasoning_token_count, input_sequence_length, …),
//	error_code int64?, error_type utf8?, error_message utf8?,
//	trace_* columns (not read)
//
// with the metrics' units in the file's key-value metadata, aiperf.units
// (a JSON object tag → unit), and aiperf.version. A row becomes the
// record the JSONL reader maps (aiperfRequest): the same issue time
// (request_start_ns, wall clock ns), TTFT, latency, tokens and failures;
// warmup rows are left out. Read through parquetio's Open, Schema and
// Each only. A problem in a row is reported at its row number (1-based)
// as the line, with the column's name.
type AIPerfParquetReader struct{}

func (AIPerfParquetReader) Format() contract.Format { return contract.FormatAIPerfParquet }

// AIPerfParquetRequired are the columns that make a Parquet file AIPerf's
// per-record export (format detection) and that a row needs.
var AIPerfParquetRequired = []string{"request_start_ns", "request_end_ns", "benchmark_phase"}

// aiperfParquetType is the type of a column read other than the
// metrics, as build_schema writes them. A switch, not a package-level
// map: a map is built by every process at start-up (issue 32).
func aiperfParquetType(name string) (batch.Type, bool) {
	switch name {
	case "x_request_id", "x_correlation_id", "conversation_id", "benchmark_phase", "error_type", "error_message":
		return batch.String, true
	case "turn_index", "request_start_ns", "request_end_ns", "error_code":
		return batch.Int64, true
	case "was_cancelled":
		return batch.Bool, true
	}
	return 0, false
}

func (AIPerfParquetReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	startDecoded(dst, run)
	pr, err := parquetio.Open(run.EventsPath)
	if err != nil {
		return info, fmt.Errorf("AIPerf per-record Parquet: %w", err)
	}
	defer pr.Close()
	sum := &dst.Summary
	sc := pr.Schema()
	units, version, warn := aiperfParquetMeta(pr)
	if warn != "" {
		run.Warnings = append(run.Warnings, run.EventsPath+": "+warn)
	}
	var cols []int
	var names []string
	for i, f := range sc.Fields() {
		want, fixed := aiperfParquetType(f.Name)
		switch {
		case fixed && f.Type != want:
			if f.Name == "request_start_ns" {
				return info, fmt.Errorf("%s: AIPerf per-record Parquet column %q is %s, not the int64 AIPerf writes", run.EventsPath, f.Name, f.Type)
			}
			sum.AddProblem(contract.KindFieldType, 0, fmt.Sprintf("column %s (%s, not %s)", f.Name, f.Type, want))
			continue
		case !fixed && (f.Type != batch.Float64 || !aiperfMetricRead(f.Name)):
			continue // metrics not used, trace_* and bookkeeping columns
		}
		cols, names = append(cols, i), append(names, f.Name)
	}
	var (
		reqs []contract.Request
		row  int64
	)
	err = pr.Each(ctx, cols, 0, func(b *batch.Batch) error {
		if err := contract.Checkpoint(ctx, opts, 0); err != nil {
			return err
		}
		for i := range int(b.NumRows()) {
			row++
			var rec aiperfRecord
			aiperfParquetRow(b, names, units, i, row, &rec, sum)
			if strings.EqualFold(rec.Metadata.BenchmarkPhase, "warmup") {
				sum.Events["warmup"]++
				continue
			}
			if r, ok := aiperfRequest(&rec, row, sum); ok {
				reqs = append(reqs, r)
			}
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		return info, fmt.Errorf("AIPerf per-record Parquet: %w", err)
	}
	if st, err := os.Stat(run.EventsPath); err == nil {
		sum.Bytes = st.Size()
	}
	sum.Lines = row
	sum.Events["request"] = int64(len(reqs))
	clearSingleTurns(reqs)
	contract.FillFromRequests(reqs, dst)
	contract.SummarizeSamples(dst)
	aiperfInfo(&info, run.Dir, &run.Warnings)
	if info.ToolVersion == "" {
		info.ToolVersion = version
	}
	return info, nil
}

// aiperfMetricRead reports a metric column the record mapping uses.
func aiperfMetricRead(name string) bool {
	var m aiperfMetricSet
	m.set(name, aiperfMetric{Value: []byte("0")})
	return len(m.byName(name).Value) > 0
}

// aiperfParquetMeta reads the file's aiperf.units and aiperf.version: the
// Arrow schema's metadata (arrow-rs stores it in ARROW:schema), else the
// file's key-value metadata (where build_metadata's map also lands). warn
// is non-empty when the units are missing or unreadable: the metrics are
// then read in AIPerf's record units (ms for durations, as the Rust
// port's records CSV heads them: "Request Latency (ms)"), which is what
// an empty unit means to aiperfMetrics.
func aiperfParquetMeta(pr *parquetio.Reader) (units map[string]string, version, warn string) {
	md := pr.Schema().Metadata()
	meta := func(key string) (string, bool) {
		if i := md.FindKey(key); i >= 0 {
			return md.Values()[i], true
		}
		return pr.KeyValue(key)
	}
	version, _ = meta("aiperf.version")
	raw, ok := meta("aiperf.units")
	if !ok {
		return nil, version, "no aiperf.units metadata: durations read as ms, AIPerf's record unit"
	}
	if err := json.Unmarshal([]byte(raw), &units); err != nil {
		return nil, version, fmt.Sprintf("aiperf.units metadata unreadable (%v): durations read as ms, AIPerf's record unit", err)
	}
	return units, version, ""
}

// aiperfParquetRow fills rec from row i of b (columns named names): null
// cells are absent fields; a metric that is not finite is a problem at
// line and its column, and absent.
func aiperfParquetRow(b *batch.Batch, names []string, units map[string]string, i int, line int64, rec *aiperfRecord, sum *contract.Summary) {
	md := &rec.Metadata
	var errCode contract.OptNum
	var errType, errMsg string
	hasErr := false
	for j, name := range names {
		col := b.Column(j)
		if col.IsNull(i) {
			continue
		}
		switch col.Type() {
		case batch.String:
			v := col.StrView(i) // the batch is never reused
			if text, _ := md.column(name); text != nil {
				*text = v
				continue
			}
			switch name {
			case "error_type":
				errType, hasErr = v, true
			case "error_message":
				errMsg, hasErr = v, true
			}
		case batch.Int64:
			v := contract.OptNum{Int: col.Int64(i), Float: float64(col.Int64(i)), Set: true, IsInt: true}
			if _, dst := md.column(name); dst != nil {
				*dst = v
			} else if name == "error_code" {
				errCode, hasErr = v, true
			}
		case batch.Bool:
			md.WasCancelled = col.Bool(i) // was_cancelled, the one bool read
		case batch.Float64:
			v := col.Float64(i)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				sum.AddProblem(contract.KindFieldType, line, name)
				continue
			}
			rec.Metrics.set(name, aiperfMetric{Value: []byte(strconv.FormatFloat(v, 'g', -1, 64)), Unit: units[name]})
		}
	}
	if hasErr {
		rec.Error = &struct {
			Code    contract.OptNum `json:"code"`
			Type    string          `json:"type"`
			Message string          `json:"message"`
		}{Code: errCode, Type: errType, Message: errMsg}
	}
}
