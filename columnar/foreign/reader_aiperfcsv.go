package foreign

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// AIPerfCSVReader reads profile_export_records.csv: the records of
// profile_export.jsonl flattened to one row each
// (ai-dynamo/aiperf src/aiperf/post_processors/record_export_csv_processor.py
// @ 2d76a5e5, RecordExportCSVProcessor):
//
//	request_num, session_num, x_request_id, x_correlation_id,
//	conversation_id, turn_index, benchmark_phase, worker_id,
//	record_processor_id, credit_issued_ns, request_start_ns,
//	request_ack_ns, request_end_ns, was_cancelled, cancellation_time_ns,
//	error_code, error_message
//
// then one column per metric, headed "tag (unit)" in the Python writer
// ("time_to_first_token (ms)", "request_latency (ms)",
// "output_sequence_length (tokens)") and "Display Name (unit)" in the
// Rust port ("Request Latency (ms)"), which also adds error_type and
// writes was_cancelled as true/false rather than True/False. Columns are
// found by name, a metric's by its name lowercased with spaces as
// underscores, so both layouts read alike. Timestamps are epoch ns
// (integers); metric values are written with %.6g (six significant
// digits). A row becomes the record the JSONL reader maps
// (aiperfRequest), so both files of a run give the same samples up to
// that rounding; warmup rows are left out.
type AIPerfCSVReader struct{}

func (AIPerfCSVReader) Format() contract.Format { return contract.FormatAIPerfCSV }

// aiperfCSVRequired are the columns a records CSV cannot do without.
var aiperfCSVRequired = []string{"request_start_ns", "request_end_ns"}

func (AIPerfCSVReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	info := run.Info
	sum := &dst.Summary
	var header []string
	var reqs []contract.Request
	err := readLines(ctx, run, opts, dst, func(line []byte, n int64, cut bool) error {
		fields, perr := csvFields(line)
		if header == nil {
			if perr != nil {
				return fmt.Errorf("%s:%d: AIPerf records CSV header unreadable: %v", run.EventsPath, n, perr)
			}
			header = fields
			for _, name := range aiperfCSVRequired {
				if !slices.Contains(header, name) {
					return fmt.Errorf("%s:%d: AIPerf records CSV header lacks column %q", run.EventsPath, n, name)
				}
			}
			return nil
		}
		if perr != nil || len(fields) != len(header) {
			switch {
			case cut:
				sum.AddProblem(contract.KindTruncatedLine, n, "")
				sum.Truncated, sum.TruncatedReason = true, "last line has no newline"
			case perr != nil:
				sum.AddProblem(contract.KindFieldType, n, "row (CSV quoting)")
			default:
				sum.AddProblem(contract.KindMissingField, n, fmt.Sprintf("row (%d fields, header %d)", len(fields), len(header)))
			}
			return nil
		}
		if rec, warmup, ok := aiperfCSVRecord(header, fields, n, sum); ok { // else no usable issue time, counted at its column
			reqs = appendAIPerf(reqs, &rec, warmup, n, sum)
		}
		return nil
	})
	if err != nil {
		return info, err
	}
	if header == nil {
		return info, fmt.Errorf("%s: empty AIPerf records CSV (no header)", run.EventsPath)
	}
	clearSingleTurns(reqs)
	sum.Events["request"] = int64(len(reqs))
	contract.FillFromRequests(reqs, dst)
	contract.SummarizeSamples(dst)
	aiperfInfo(&info, run.Dir, &run.Warnings)
	return info, nil
}

// csvFields splits one CSV line (RFC 4180 quoting; a quoted field
// spanning lines is not rejoined: its line is a problem).
func csvFields(line []byte) ([]string, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))))
	r.FieldsPerRecord = -1
	f, err := r.Read()
	if err != nil {
		return nil, err
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f, nil
}

// aiperfCSVRecord is the record of one row; warmup reports a warmup row.
// A cell that is not what its column holds is a problem at the row's
// line and the column's name, and is read as absent; ok is false when
// that cell is request_start_ns (the row cannot be placed).
func aiperfCSVRecord(header, fields []string, line int64, sum *contract.Summary) (rec aiperfRecord, warmup, ok bool) {
	md := &rec.Metadata
	var errCode, errType, errMsg string
	ok = true
	num := func(col, cell string, dst *contract.OptNum) {
		if cell == "" {
			return
		}
		_ = dst.UnmarshalJSON([]byte(cell))
		if dst.Bad {
			sum.AddProblem(contract.KindFieldType, line, col)
			*dst = contract.OptNum{}
			ok = ok && col != "request_start_ns"
		}
	}
	for i, col := range header {
		cell := fields[i]
		if text, dst := md.column(col); text != nil {
			*text = cell
			continue
		} else if dst != nil {
			num(col, cell, dst)
			continue
		}
		switch col {
		case "was_cancelled":
			switch strings.ToLower(cell) {
			case "true":
				md.WasCancelled = true
			case "false", "":
			default:
				sum.AddProblem(contract.KindFieldType, line, col)
			}
		case "error_code":
			errCode = cell
		case "error_type":
			errType = cell
		case "error_message":
			errMsg = cell
		default:
			name, unit, isMetric := aiperfCSVMetric(col)
			if !isMetric || cell == "" {
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				sum.AddProblem(contract.KindFieldType, line, col)
				continue
			}
			rec.Metrics.set(name, aiperfMetric{Value: []byte(strconv.FormatFloat(v, 'g', -1, 64)), Unit: unit})
		}
	}
	warmup = strings.EqualFold(md.BenchmarkPhase, "warmup")
	if errCode != "" || errType != "" || errMsg != "" {
		rec.Error = &struct {
			Code    contract.OptNum `json:"code"`
			Type    string          `json:"type"`
			Message string          `json:"message"`
		}{Type: errType, Message: errMsg}
		num("error_code", errCode, &rec.Error.Code)
	}
	return rec, warmup, ok
}

// aiperfCSVMetric splits a metric column's header "name (unit)" into the
// metric's JSON name (lowercased, spaces as underscores: the Rust port's
// display names become the Python tags) and its unit; ok false for a
// column of another shape.
func aiperfCSVMetric(col string) (name, unit string, ok bool) {
	open := strings.LastIndex(col, " (")
	if open <= 0 || !strings.HasSuffix(col, ")") {
		return "", "", false
	}
	name = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(col[:open])), " ", "_")
	return name, col[open+2 : len(col)-1], true
}

// set stores metric name's value (names the reader does not use are
// dropped).
func (m *aiperfMetricSet) set(name string, v aiperfMetric) {
	if p := m.field(name); p != nil {
		*p = v
	}
}
