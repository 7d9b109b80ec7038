package columnar

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// legacyRecord is one line as the pre-#282 recorder's dump_to_json wrote
// it (metrics/reporter.py at 2a60f634~1): these five keys, sorted.
type legacyRecord struct {
	ApproxDatetimeStr string `json:"approx_datetime_str"`
	EventType         string `json:"event_type"`
	SampleUUID        string `json:"sample_uuid"`
	TimestampNs       int64  `json:"timestamp_ns"`
	Value             string `json:"value"`
}

// currentLine is the part of a current-format line the converters use.
type currentLine struct {
	EventType   string            `json:"event_type"`
	TimestampNs int64             `json:"timestamp_ns"`
	SampleUUID  string            `json:"sample_uuid"`
	Data        []json.RawMessage `json:"data"`
}

// chunks returns a TextModelOutput element as its chunks (a string is one
// chunk) and whether it was an array.
func chunks(raw json.RawMessage) ([]string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, false
	}
	var a []string
	if json.Unmarshal(raw, &a) == nil {
		return a, true
	}
	return nil, false
}

// toLegacy rewrites a current-format events log as the old recorder would
// have written the same run: a sample's first chunk (today only in its
// complete's payload) becomes its first_chunk_received value; a complete
// is the joined output, "[reasoning: R] O" with reasoning; errors are the
// recorder's stringified dict. The old recorder had no tracking start and
// no warmup: samples issued before start_performance_tracking are left
// out, and a failed complete with no error before it gets the error the
// recorder always wrote first.
func toLegacy(t testing.TB, current []byte) []byte {
	t.Helper()
	var lines []currentLine
	first := map[string]string{}
	cut := !bytes.HasSuffix(current, []byte("\n"))
	all := bytes.Split(bytes.TrimRight(current, "\n"), []byte("\n"))
	for k, l := range all {
		var c currentLine
		if err := json.Unmarshal(l, &c); err != nil {
			if k == len(all)-1 && cut {
				break // a killed run's cut last line: cut the legacy log too
			}
			t.Fatalf("current-format line %q: %v", l, err)
		}
		lines = append(lines, c)
		if c.EventType == "sample.complete" && len(c.Data) > 1 {
			out, outArr := chunks(c.Data[1])
			var reasoning []string
			reasonArr := false
			if len(c.Data) > 2 {
				reasoning, reasonArr = chunks(c.Data[2])
			}
			switch {
			case reasonArr && len(reasoning) > 0:
				first[c.SampleUUID] = reasoning[0]
			case outArr && len(out) > 0:
				first[c.SampleUUID] = out[0]
			}
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	tracking, warm, errored := false, map[string]bool{}, map[string]bool{}
	emit := func(c currentLine, typ, value string) {
		rec := legacyRecord{time.Unix(0, c.TimestampNs).UTC().Format("2006-01-02T15:04:05.000000"), typ, c.SampleUUID, c.TimestampNs, value}
		if err := enc.Encode(rec); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range lines {
		if warm[c.SampleUUID] {
			continue
		}
		switch c.EventType {
		case "session.started":
			emit(c, "test_started", "")
		case "session.start_performance_tracking":
			tracking = true
		case "session.stop_performance_tracking":
			emit(c, "stop_performance_tracking", "")
		case "session.ended":
			emit(c, "test_ended", "")
		case "sample.issued":
			if !tracking {
				warm[c.SampleUUID] = true
				continue
			}
			emit(c, "loadgen_issue_called", "")
		case "sample.recv_first":
			emit(c, "first_chunk_received", first[c.SampleUUID])
		case "sample.recv_non_first":
			emit(c, "non_first_chunk_received", "")
		case "error.generic":
			var typ, msg string
			if len(c.Data) > 2 {
				_ = json.Unmarshal(c.Data[1], &typ)
				_ = json.Unmarshal(c.Data[2], &msg)
			}
			errored[c.SampleUUID] = true
			emit(c, "error", fmt.Sprintf("{'error_type': '%s', 'error_message': '%s'}", typ, msg))
		case "sample.complete":
			if len(c.Data) == 0 {
				if !errored[c.SampleUUID] {
					emit(c, "error", "{'error_type': 'error', 'error_message': 'unknown'}")
				}
				emit(c, "complete", "")
				continue
			}
			out, _ := chunks(c.Data[1])
			value := strings.Join(out, "")
			if len(c.Data) > 2 {
				if r, _ := chunks(c.Data[2]); r != nil {
					value = "[reasoning: " + strings.Join(r, "") + "] " + value
				}
			}
			emit(c, "complete", value)
		}
	}
	if cut {
		b.WriteString(`{"approx_datetime_str":"1970-01-01T00:00:00.000000","event_type":"loadgen_is`)
	}
	return b.Bytes()
}

// legacyErrorMessage reads the message out of the recorder's error value.
var legacyErrorMessage = regexp.MustCompile(`'error_type': '(.*?)', 'error_message': '(.*)'}$`)

// fromLegacy rewrites a legacy log in today's format, the other way
// round: a tracking window from the test's start, the first chunk and
// the rest of a complete's text as its two output chunks (reasoning:
// the output a string, the reasoning the two chunks), failed completes
// with null data.
func fromLegacy(t *testing.T, legacy []byte) []byte {
	t.Helper()
	var recs []legacyRecord
	first := map[string]string{}
	cut := !bytes.HasSuffix(legacy, []byte("\n"))
	all := bytes.Split(bytes.TrimRight(legacy, "\n"), []byte("\n"))
	if cut {
		all = all[:len(all)-1]
	}
	for _, l := range all {
		var r legacyRecord
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
		if r.EventType == "first_chunk_received" {
			first[r.SampleUUID] = r.Value
		}
	}
	var b bytes.Buffer
	line := func(typ string, r legacyRecord, data any) {
		d, err := json.Marshal(data)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, `{"event_type":%q,"timestamp_ns":%d,"sample_uuid":%q,"conversation_id":"","turn":null,"data":%s}`+"\n", typ, r.TimestampNs, r.SampleUUID, d)
	}
	failed := map[string]bool{}
	for _, r := range recs {
		switch r.EventType {
		case "test_started":
			line("session.started", legacyRecord{TimestampNs: r.TimestampNs}, nil)
			line("session.start_performance_tracking", legacyRecord{TimestampNs: r.TimestampNs}, nil)
		case "stop_performance_tracking":
			line("session.stop_performance_tracking", legacyRecord{TimestampNs: r.TimestampNs}, nil)
		case "test_ended":
			line("session.ended", legacyRecord{TimestampNs: r.TimestampNs}, nil)
		case "loadgen_issue_called":
			line("sample.issued", r, []any{"PromptData", nil, nil})
		case "first_chunk_received":
			line("sample.recv_first", r, nil)
		case "error":
			failed[r.SampleUUID] = true
			m := legacyErrorMessage.FindStringSubmatch(r.Value)
			if m == nil {
				t.Fatalf("error value %q", r.Value)
			}
			line("error.generic", r, []any{"ErrorData", m[1], m[2]})
		case "complete":
			f, streamed := first[r.SampleUUID]
			switch {
			case failed[r.SampleUUID] && r.Value == "":
				line("sample.complete", r, nil)
			case strings.HasPrefix(r.Value, endpoints.LegacyReasoningPrefix):
				rest := strings.TrimPrefix(r.Value, endpoints.LegacyReasoningPrefix)
				reasoning, out, _ := strings.Cut(rest, "] ")
				line("sample.complete", r, []any{"TextModelOutput", out, []string{f, strings.TrimPrefix(reasoning, f)}, nil})
			case streamed:
				line("sample.complete", r, []any{"TextModelOutput", []string{f, strings.TrimPrefix(r.Value, f)}, nil, nil})
			default:
				line("sample.complete", r, []any{"TextModelOutput", r.Value, nil, nil})
			}
		}
	}
	if cut {
		b.WriteString(`{"event_type":"sample.iss`)
	}
	return b.Bytes()
}

// runWithEvents writes events beside a copy of dir's sidecars.
func runWithEvents(t *testing.T, dir string, events []byte) string {
	t.Helper()
	out := t.TempDir()
	for _, name := range []string{"config.yaml", "run_meta.json", "sample_idx_map.json"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			writeTemp(t, out, name, string(b))
		}
	}
	writeTemp(t, out, "events.jsonl", string(events))
	return out
}

// ingestWords ingests dir counting words, returning its table and the
// format detected.
func ingestWords(t *testing.T, dir string) (*contract.Table, contract.Format) {
	t.Helper()
	run, tab := ingestRun(t, dir, contract.IngestOptions{Counter: tokenizer.Words{}})
	return tab, run.Format
}

// sameRun fails unless two reads of one run agree: every column, the
// within-super-pass orders (FirstTokenSeq, CompleteSeq are line
// ordinals of differently laid out files: their order must agree, not
// their values), the uuids, and the detector's whole result under the
// reference and under our defaults.
func sameRun(t *testing.T, a, b *contract.Table) {
	t.Helper()
	sa, sb := a.Samples(), b.Samples()
	if sa.Len() != sb.Len() || sa.Len() == 0 {
		t.Fatalf("%d samples vs %d", sa.Len(), sb.Len())
	}
	order := func(seq []int64) []int {
		idx := make([]int, len(seq))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(x, y int) int { return cmp.Compare(seq[x], seq[y]) })
		return idx
	}
	if !slices.Equal(order(sa.FirstTokenSeq), order(sb.FirstTokenSeq)) || !slices.Equal(order(sa.CompleteSeq), order(sb.CompleteSeq)) {
		t.Error("event orders differ")
	}
	sa.FirstTokenSeq, sb.FirstTokenSeq, sa.CompleteSeq, sb.CompleteSeq = nil, nil, nil, nil
	// Today's decoder classifies failures from the columns alone; the
	// legacy reader also reads the error's text, so its kinds may be finer
	// (http 503 where today's says error), never different otherwise.
	for i := range sa.FailureKind {
		ka, kb := sa.FailureKind[i], sb.FailureKind[i]
		if ka != kb && (ka == core.FailError || kb == core.FailError) && sa.Failed[i] {
			sa.FailureKind[i], sb.FailureKind[i], sa.FailCode[i], sb.FailCode[i] = core.FailError, core.FailError, 0, 0
		}
	}
	va, vb := reflect.ValueOf(sa), reflect.ValueOf(sb)
	for i := 0; i < va.NumField(); i++ {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			t.Errorf("column %s differs", va.Type().Field(i).Name)
		}
	}
	for i := 0; i < sa.Len(); i++ {
		if a.UUID(i) != b.UUID(i) || a.DatasetIndex(i) != b.DatasetIndex(i) {
			t.Fatalf("sample %d: uuid %s/%s, dataset index %d/%d", i, a.UUID(i), b.UUID(i), a.DatasetIndex(i), b.DatasetIndex(i))
		}
	}
	// The JSON's source {format, path} names each file read, so it differs
	// by design (checkLegacyParity checks the formats); the rest must not.
	ia, ib := a.Info, b.Info
	ia.SourceFormat, ia.SourcePath, ib.SourceFormat, ib.SourcePath = "", "", "", ""
	for _, p := range []core.Params{core.ReferenceParams(), core.DefaultParams()} {
		if !bytes.Equal(resultJSON(t, &sa, ia, p), resultJSON(t, &sb, ib, p)) {
			t.Errorf("compat %s: results differ", p.Compat)
		}
	}
}

// resultJSON is the JSON result of analysing s with p.
func resultJSON(t *testing.T, s *core.Samples, info core.RunInfo, p core.Params) []byte {
	t.Helper()
	r, err := core.NewRun(s, info).Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	j, err := resultjson.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// checkLegacyParity converts a current-format run to the legacy format
// and back and checks all three reads agree.
func checkLegacyParity(t *testing.T, dir string) {
	current, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	legacy := toLegacy(t, current)
	orig, f0 := ingestWords(t, dir)
	old, f1 := ingestWords(t, runWithEvents(t, dir, legacy))
	back, f2 := ingestWords(t, runWithEvents(t, dir, fromLegacy(t, legacy)))
	if f0 != contract.FormatEndpoints || f1 != contract.FormatEndpointsLegacy || f2 != contract.FormatEndpoints {
		t.Fatalf("formats %s, %s, %s", f0, f1, f2)
	}
	if old.Summary.ProblemTotal() != orig.Summary.ProblemTotal() || old.Info.SourceFormat != "endpoints-legacy" {
		t.Errorf("legacy read: problems %s (today's: %s), format %q", warningsOf(old), warningsOf(orig), old.Info.SourceFormat)
	}
	if orig.Summary.Truncated != old.Summary.Truncated {
		t.Errorf("truncated %v vs %v (%s)", orig.Summary.Truncated, old.Summary.Truncated, old.Summary.TruncatedReason)
	}
	sameRun(t, orig, old)
	sameRun(t, old, back)
}

// TestLegacyParity: a run written in the pre-#282 format gives the same
// columns and the same detector result as the run in today's format
// (testdata/small_run converted both ways; it is cut, so it also checks
// a log without an end).
func TestLegacyParity(t *testing.T) {
	checkLegacyParity(t, smallRun)
	// testdata/legacy_run (the mixed-archive tests' legacy run) is this
	// conversion of small_run.
	current, err := os.ReadFile(filepath.Join(smallRun, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if fixture, err := os.ReadFile("testdata/legacy_run/events.jsonl"); err != nil || !bytes.Equal(fixture, toLegacy(t, current)) {
		t.Errorf("testdata/legacy_run/events.jsonl is not toLegacy(small_run) (%v)", err)
	}
}

// TestLegacyParityShared: the same on shared parity runs with failures,
// reasoning outputs, a Poisson load and a truncated log.
func TestLegacyParityShared(t *testing.T) {
	runs := filepath.Join(sharedDir(t), "parity", "runs")
	for _, name := range []string{"conc_failures", "conc_reasoning_precision", "poisson_steady", "conc_truncated"} {
		t.Run(name, func(t *testing.T) { checkLegacyParity(t, filepath.Join(runs, name)) })
	}
}

// legacyLog joins records into a legacy log.
func legacyLog(t *testing.T, recs ...legacyRecord) string {
	var b strings.Builder
	for _, r := range recs {
		j, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

const (
	lu1 = "0123456789abcdef0123456789abcdef"
	lu2 = "fedcba9876543210fedcba9876543210"
)

// TestLegacyFailures: the recorder's error values name the failure.
func TestLegacyFailures(t *testing.T) {
	log := legacyLog(t,
		legacyRecord{"", "test_started", "", 100, ""},
		legacyRecord{"", "loadgen_issue_called", lu1, 200, ""},
		legacyRecord{"", "loadgen_issue_called", lu2, 210, ""},
		legacyRecord{"", "error", lu1, 300, "{'error_type': 'error', 'error_message': 'HTTP 503: Service Unavailable'}"},
		legacyRecord{"", "complete", lu1, 301, ""},
		legacyRecord{"", "first_chunk_received", lu2, 320, "Hello"},
		legacyRecord{"", "error", lu2, 400, "{'error_type': 'ClientPayloadError', 'error_message': 'Response payload is not completed'}"},
		legacyRecord{"", "complete", lu2, 401, "Hello wor"},
		legacyRecord{"", "error", endpoints.LegacyNoUUID, 402, "{'error_type': 'JSONEncodeError', 'error_message': 'x'}"},
		legacyRecord{"", "stop_performance_tracking", "", 500, ""},
		legacyRecord{"", "test_ended", "", 600, ""},
	)
	tab, _ := ingestWords(t, runWithEvents(t, t.TempDir(), []byte(log)))
	s := tab.Samples()
	if s.Len() != 2 || !s.Failed[0] || !s.Failed[1] || tab.Info.Partial || tab.Summary.ProblemTotal() != 0 {
		t.Fatalf("samples %d failed %v partial %v problems %s", s.Len(), s.Failed, tab.Info.Partial, warningsOf(tab))
	}
	if s.FailureKind[0] != core.FailHTTP || s.FailCode[0] != 503 || s.FailureKind[1] != core.FailMidstream || s.TTFTNs[1] != 110 {
		t.Errorf("kinds %v codes %v ttft %v", s.FailureKind, s.FailCode, s.TTFTNs)
	}
	if s.OutTokens[1] != 1 { // " wor" after the first chunk "Hello"
		t.Errorf("out tokens %v", s.OutTokens)
	}
	// Each line counted under its own event type.
	want := map[string]int64{"test_started": 1, "loadgen_issue_called": 2, "error": 3, "complete": 2,
		"first_chunk_received": 1, "stop_performance_tracking": 1, "test_ended": 1}
	if !maps.Equal(tab.Summary.Events, want) {
		t.Errorf("events %v, want %v", tab.Summary.Events, want)
	}
}

// TestLegacyMalformed: a bad line is one problem naming the file, the
// line and the field; the other lines are read.
func TestLegacyMalformed(t *testing.T) {
	head := legacyLog(t, legacyRecord{"", "test_started", "", 100, ""}, legacyRecord{"", "loadgen_issue_called", lu1, 200, ""})
	tail := legacyLog(t, legacyRecord{"", "complete", lu1, 300, "x y"}, legacyRecord{"", "test_ended", "", 600, ""})
	for _, tc := range []struct{ name, line, want string }{
		{"not JSON", `{"event_type":"complete",`, `:3: not valid JSON`},
		{"not an object", `"complete"`, `:3: JSON value is not an object`},
		{"event type a number", `{"event_type":7,"sample_uuid":"` + lu2 + `","timestamp_ns":1,"value":""}`, `:3: field "event_type": unexpected field type`},
		{"timestamp a string", `{"event_type":"loadgen_issue_called","sample_uuid":"` + lu2 + `","timestamp_ns":"1","value":""}`, `:3: field "timestamp_ns": unexpected field type`},
		{"no uuid", `{"event_type":"loadgen_issue_called","timestamp_ns":5,"value":""}`, `:3: field "sample_uuid": required field missing`},
		{"uuid a list", `{"event_type":"complete","sample_uuid":[1],"timestamp_ns":5,"value":""}`, `:3: field "sample_uuid": unexpected field type`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := runWithEvents(t, t.TempDir(), []byte(head+tc.line+"\n"+tail))
			tab, f := ingestWords(t, dir)
			s := tab.Samples()
			want := filepath.Join(dir, "events.jsonl") + tc.want
			if f != contract.FormatEndpointsLegacy || s.Len() != 1 || !s.HasComplete[0] || !strings.Contains(warningsOf(tab), want) || tab.Summary.ProblemTotal() != 1 {
				t.Errorf("format %s, %d samples, problems %q, want one %q", f, s.Len(), warningsOf(tab), want)
			}
		})
	}
	// A log without test_ended, or with a cut last line, is partial.
	for _, body := range []string{head, head + `{"event_type":"complete","sam`} {
		tab, _ := ingestWords(t, runWithEvents(t, t.TempDir(), []byte(body)))
		if !tab.Info.Partial || tab.Summary.Samples != 1 {
			t.Errorf("%q: partial %v (%s), samples %d", body[len(body)-20:], tab.Info.Partial, tab.Info.PartialReason, tab.Summary.Samples)
		}
	}
}

// FuzzLegacyLine: any line between valid ones: no panic, consistent
// columns, problems on the input's lines.
func FuzzLegacyLine(f *testing.F) {
	for _, s := range []string{`{"event_type":"first_chunk_received","sample_uuid":"` + lu1 + `","timestamp_ns":1,"value":"a"}`,
		`{"event_type":"complete","sample_uuid":"` + lu1 + `","timestamp_ns":1e3,"value":"[reasoning: a] b"}`, `{}`, `[]`, "\x00", `{"value":null}`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.ReplaceAll(line, []byte("\n"), nil)
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		fmt.Fprintf(w, `{"event_type":"test_started","sample_uuid":"","timestamp_ns":1,"value":""}`+"\n")
		fmt.Fprintf(w, `{"event_type":"loadgen_issue_called","sample_uuid":"%s","timestamp_ns":2,"value":""}`+"\n%s\n", lu1, line)
		fmt.Fprintf(w, `{"event_type":"complete","sample_uuid":"%s","timestamp_ns":9,"value":"x y"}`+"\n", lu1)
		w.Flush()
		path := writeTemp(t, dir, "events.jsonl", b.String())
		run := &contract.Run{Dir: dir, EventsPath: path, Format: contract.FormatEndpointsLegacy, Part: -1}
		var d contract.Decoded
		if _, err := (endpoints.LegacyReader{}).Read(context.Background(), run, contract.IngestOptions{Counter: tokenizer.Words{}}, &d); err != nil {
			t.Fatal(err)
		}
		checkColumns(t, &d.Samples)
		if len(d.Keys) != d.Samples.Len() || len(d.TextBytes) != d.Samples.Len() || d.Samples.Len() < 1 {
			t.Fatalf("%d samples, %d keys", d.Samples.Len(), len(d.Keys))
		}
		checkProblemLines(t, &d, 1, 4)
	})
}

// FuzzFlatObject: the legacy fast path agrees with encoding/json: a line
// it accepts is valid JSON, and every value it returns decodes as
// encoding/json decodes it (last duplicate key winning in both).
func FuzzFlatObject(f *testing.F) {
	for _, s := range []string{`{"a":"b\n\u00e9\ud83d\ude00","t":12,"n":null}`, `{"a":"\ud800x"}`, `{"a":1e5,"b":-0.5}`, `{}`, `{"a":"\xff"}`,
		`{"a":01}`, `{"a":"b"} x`, `{"a":{"b":1}}`, `{"k":"v","k":"w"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got := map[string]string{}
		if !scan.ScanFlatObject(line, func(k, v []byte) { got[string(k)] = string(v) }) {
			return
		}
		// Numbers as json.Number: 1e700 is valid JSON that only a float64
		// cannot hold (the fuzzer's finding); the fast path returns the
		// token and its reader's field parsing decides.
		var want map[string]any
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		err := dec.Decode(&want)
		if _, end := dec.Token(); err == nil && end != io.EOF {
			err = fmt.Errorf("data after the object: %v", end)
		}
		if err != nil {
			t.Fatalf("accepted %q, which encoding/json rejects: %v", line, err)
		}
		if len(want) != len(got) {
			t.Fatalf("%q: %d keys, encoding/json %d", line, len(got), len(want))
		}
		for k, raw := range got {
			s, ok := want[k].(string)
			if !ok {
				continue
			}
			u, ok := scan.UnquoteJSON([]byte(raw), nil)
			if !ok || string(u) != s {
				t.Fatalf("%q: key %q = %q (ok %v), encoding/json %q", line, k, u, ok, s)
			}
		}
	})
}
