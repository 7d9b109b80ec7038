package endpoints

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unsafe"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// LegacyReader reads the events.jsonl of endpoints runs before PR #282
// (Jan–Apr 2026), written by metrics/reporter.py's dump_to_json from the
// recorder's sqlite table in insertion order (event-log spec §1.9):
//
//	{"approx_datetime_str":"…","event_type":"loadgen_issue_called","sample_uuid":"…","timestamp_ns":…,"value":""}
//
// Its events map onto the state machine of today's format (state.go),
// which then applies the same rules:
//
//	test_started               session start; tracking on (the recorder has no start event:
//	                           every sample issued before stop_performance_tracking is tracked)
//	loadgen_issue_called       sample.issued
//	first_chunk_received       sample.recv_first; value = the first chunk's text
//	complete                   sample.complete; value = the whole output, "[reasoning: R] O" with reasoning
//	error                      error.generic (the failed request's complete follows, value "")
//	stop_performance_tracking  session.stop_performance_tracking (after the last perf issue)
//	test_ended                 session.ended
//
// (non_first_chunk_received, loadgen_data_load, http_* and zmq_* are
// counted and ignored.) The post-first-chunk text is the complete's text
// without the first chunk's, matching today's TextModelOutput rule; with
// reasoning it is R without the first chunk, then O, R and O split at the
// first "] " (exact unless R itself holds "] "). Tokens are counted with
// the run's counter, as for today's format. No prompts were logged, so no
// input token counts.
type LegacyReader struct{}

func (LegacyReader) Format() contract.Format { return contract.FormatEndpointsLegacy }

// legacyLine is one line of the legacy log.
type legacyLine struct {
	EventType   json.RawMessage `json:"event_type"`
	SampleUUID  json.RawMessage `json:"sample_uuid"`
	TimestampNs json.RawMessage `json:"timestamp_ns"`
	Value       json.RawMessage `json:"value"`
}

// Set records a field of a flat line (scanFlatObject).
func (l *legacyLine) Set(key, val []byte) {
	switch string(key) {
	case "event_type":
		l.EventType = val
	case "sample_uuid":
		l.SampleUUID = val
	case "timestamp_ns":
		l.TimestampNs = val
	case "value":
		l.Value = val
	}
}

// legacyEvents are the legacy recorder's event types and their kinds: an
// array the linker lays out (two maps were built at every start).
var legacyEvents = [...]struct {
	name string
	kind evKind
}{
	{"test_started", evStarted},
	{"loadgen_issue_called", EvIssued},
	{"first_chunk_received", EvRecvFirst},
	{"non_first_chunk_received", evRecvNonFirst},
	{"complete", EvComplete},
	{"error", EvError},
	{"stop_performance_tracking", EvStop},
	{"test_ended", evEnded},
}

// legacyKind is the kind of event type name, with the table's copy of
// the name (counted without allocating one); known is false for a type
// not in the table.
func legacyKind(name []byte) (kind evKind, canon string, known bool) {
	for _, e := range legacyEvents {
		if string(name) == e.name {
			return e.kind, e.name, true
		}
	}
	return 0, "", false
}

// LegacyNoUUID is the recorder's sample_uuid of an error without one.
const LegacyNoUUID = "<NO_SAMPLE_UUID>"

func (LegacyReader) Read(ctx context.Context, run *contract.Run, opts contract.IngestOptions, dst *contract.Decoded) (core.RunInfo, error) {
	dst.Reset()
	sum := &dst.Summary
	sum.File = run.EventsPath
	sum.TrackingStartNs, sum.TrackingStopNs = -1, -1
	sum.Events = make(map[string]int64)
	if opts.Counter != nil {
		sum.Counter = opts.Counter.Identity()
	}
	rc, err := contract.OpenEventsCtx(ctx, run.EventsPath)
	if err != nil {
		return run.Info, err
	}
	defer rc.Close()
	m := newMachine(dst, 0, scan.UUIDIndex{})
	m.apply(&Event{Kind: EvStart}) // tracked from the start: there is no start event
	lr := contract.NewLineReader(rc, contract.Cmp0(opts.MaxLineSize, contract.DefaultMaxLineSize))
	first := map[scan.SampleKey]string{} // first-chunk text of pending samples
	errMsg := map[string]string{}        // error text by uuid
	ended := false
	var buf []byte
	err = lr.EachLine(ctx, opts, 4096, sum, func(line []byte, cut bool) error {
		ev, ok := legacyEvent(line, lr.Line, cut, sum)
		if !ok {
			return nil
		}
		// text aliases the line or buf: it is copied where it is kept.
		var text string
		if len(ev.value) > 0 && ev.value[0] == '"' {
			if t, ok := scan.UnquoteJSON(ev.value, buf); ok {
				text = unsafe.String(unsafe.SliceData(t), len(t))
				if len(t) > 0 && &t[0] != &ev.value[1] {
					buf = t[:0]
				}
			}
		}
		switch ev.Kind {
		case evStarted:
			if sum.TrackingStartNs < 0 && ev.Flags&fTS != 0 {
				sum.TrackingStartNs = ev.ts
			}
			return nil
		case evEnded:
			ended = true
			return nil
		case EvRecvFirst:
			if _, seen := first[ev.key()]; !seen {
				first[ev.key()] = strings.Clone(text)
			}
		case EvError:
			errMsg[ev.uuidString()] = strings.Clone(text)
		case EvComplete:
			key := ev.key()
			f, streamed := first[key]
			delete(first, key)
			if _, failed := errMsg[ev.uuidString()]; failed && text == "" {
				ev.Flags |= FDataNull
				break
			}
			after := legacyTextAfterFirstChunk(text, f, streamed)
			ev.NBytes = int32(min(len(after), 1<<31-1))
			switch {
			case after == "":
			case opts.Counter != nil:
				ev.Tokens = int32(opts.Counter.Count(after))
			default:
				ev.Tokens = TokNotCounted
			}
			if streamed && opts.Counter != nil {
				// The whole output: the first chunk plus the rest (system TPS).
				n := 0
				if f != "" {
					n = opts.Counter.Count(f)
				}
				ev.Full = int32(n + max(int(ev.Tokens), 0))
			}
		}
		m.apply(&ev.Event)
		return nil
	})
	if err != nil {
		return run.Info, err
	}
	sum.Bytes = lr.BytesRead
	switch {
	case sum.Truncated:
	case lr.Cut:
		sum.Truncated, sum.TruncatedReason = true, "last line has no newline"
	case !ended:
		sum.Truncated, sum.TruncatedReason = true, "no test_ended event"
	}
	m.finish()
	contract.FillDecodedColumns(&dst.Samples)
	legacyFailureKinds(dst, errMsg)
	return EndpointsInfo(run), nil
}

// legacyEv is a decoded legacy line.
type legacyEv struct {
	Event
	value json.RawMessage
}

func (e *legacyEv) key() scan.SampleKey {
	if e.Flags&fUUIDExt != 0 {
		return scan.SampleKey{Ext: e.ext}
	}
	return scan.SampleKey{Hex: e.uuid}
}

func (e *legacyEv) uuidString() string { return e.key().String() }

// legacyEvent decodes one line; ok is false for a line that is bad (the
// problem counted) or that the state machine does not need.
func legacyEvent(line []byte, lineNo int64, cut bool, sum *contract.Summary) (legacyEv, bool) {
	var l legacyLine
	if !scan.ScanFlatObject(line, l.Set) {
		// Not a flat object of scalars: encoding/json decides, and names
		// the problem.
		l = legacyLine{}
		if !contract.UnmarshalLine(line, lineNo, cut, &l, sum) {
			return legacyEv{}, false
		}
	}
	if len(l.EventType) == 0 || string(l.EventType) == "null" {
		sum.AddProblem(contract.KindMissingField, lineNo, "event_type")
		sum.Events["other"]++
		return legacyEv{}, false
	}
	nameBytes, ok := scan.UnquoteJSON(l.EventType, nil)
	if !ok {
		sum.AddProblem(contract.KindFieldType, lineNo, "event_type")
		sum.Events["other"]++
		return legacyEv{}, false
	}
	kind, canon, known := legacyKind(nameBytes)
	if known {
		sum.Events[canon]++
	} else {
		sum.Events[string(nameBytes)]++
	}
	if !known || kind == evRecvNonFirst {
		return legacyEv{}, false
	}
	ev := legacyEv{Event: Event{Line: lineNo, Kind: kind, Turn: -1, Tokens: TokEmpty, Full: TokEmpty, Flags: fWarm}, value: l.Value}
	if ts := bytes.TrimSpace(l.TimestampNs); len(ts) > 0 && !bytes.Equal(ts, []byte("null")) {
		if n, err := strconv.ParseInt(string(ts), 10, 64); err == nil {
			ev.ts, ev.Flags = n, ev.Flags|fTS
		} else if f, err := strconv.ParseFloat(string(ts), 64); err == nil && f >= -9.2e18 && f <= 9.2e18 {
			sum.AddProblem(contract.KindFieldType, lineNo, "timestamp_ns")
			ev.ts, ev.Flags = int64(f), ev.Flags|fTS
		} else {
			sum.AddProblem(contract.KindFieldType, lineNo, "timestamp_ns")
		}
	}
	switch kind {
	case evStarted, evEnded, EvStop:
		return ev, true
	}
	var uuid string
	if len(l.SampleUUID) > 0 && string(l.SampleUUID) != "null" {
		u, ok := scan.UnquoteJSON(l.SampleUUID, nil)
		if !ok {
			sum.AddProblem(contract.KindFieldType, lineNo, "sample_uuid")
			return legacyEv{}, false
		}
		uuid = string(u)
	}
	if uuid == "" || uuid == LegacyNoUUID {
		if kind != EvError {
			sum.AddProblem(contract.KindMissingField, lineNo, "sample_uuid")
		}
		return legacyEv{}, false
	}
	if ev.Flags&fTS == 0 && kind != EvError && (len(l.TimestampNs) == 0 || string(l.TimestampNs) == "null") {
		sum.AddProblem(contract.KindMissingField, lineNo, "timestamp_ns")
	}
	ev.Flags |= fUUID
	if len(uuid) != 32 || !scan.PackHex(&ev.uuid, []byte(uuid)) {
		ev.ext, ev.Flags = uuid, ev.Flags|fUUIDExt
	}
	return ev, true
}

// LegacyReasoningPrefix opens the recorder's rendering of an output with
// reasoning, "[reasoning: R] O".
const LegacyReasoningPrefix = "[reasoning: "

// legacyTextAfterFirstChunk is the text after the first chunk of a legacy
// complete's value, given the first chunk's text (streamed false: there
// was none, a non-streamed output, whose text is all first chunk).
func legacyTextAfterFirstChunk(value, firstChunk string, streamed bool) string {
	if !streamed {
		return ""
	}
	if rest, ok := strings.CutPrefix(value, LegacyReasoningPrefix); ok {
		if r, o, ok := strings.Cut(rest, "] "); ok {
			return strings.TrimPrefix(r, firstChunk) + o
		}
	}
	return strings.TrimPrefix(value, firstChunk)
}

// legacyFailureKinds refines the failure kinds of samples whose error
// event's text names a cause (the recorder's "{'error_type': …,
// 'error_message': 'HTTP 503: …'}").
func legacyFailureKinds(dst *contract.Decoded, errMsg map[string]string) {
	if len(errMsg) == 0 {
		return
	}
	s := &dst.Samples
	for i := 0; i < s.Len(); i++ {
		if !s.Failed[i] {
			continue
		}
		if msg, ok := errMsg[dst.UUID(i)]; ok {
			var code int32
			s.FailureKind[i], code = contract.ClassifyFailure(0, "", msg, s.HasFirstToken[i])
			contract.SetFailCode(s, i, code)
		}
	}
}
