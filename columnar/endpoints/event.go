package endpoints

import (
	"bytes"
	"errors"
	"unicode/utf8"
	"unsafe"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// evKind is the event type of a decoded line.
type evKind uint8

// Event types. evOther covers unknown or missing types.
const (
	EvOther evKind = iota
	evStarted
	EvStart
	EvStop
	evEnded
	EvIssued
	EvRecvFirst
	evRecvNonFirst
	EvComplete
	EvError
	NumEvKinds
)

var evNames = [NumEvKinds]string{
	EvOther:        "other",
	evStarted:      "session.started",
	EvStart:        "session.start_performance_tracking",
	EvStop:         "session.stop_performance_tracking",
	evEnded:        "session.ended",
	EvIssued:       "sample.issued",
	EvRecvFirst:    "sample.recv_first",
	evRecvNonFirst: "sample.recv_non_first",
	EvComplete:     "sample.complete",
	EvError:        "error.generic",
}

func LookupEvKind(s []byte) evKind {
	switch string(s) {
	case "sample.issued":
		return EvIssued
	case "sample.recv_first":
		return EvRecvFirst
	case "sample.complete":
		return EvComplete
	case "sample.recv_non_first":
		return evRecvNonFirst
	case "session.start_performance_tracking":
		return EvStart
	case "session.stop_performance_tracking":
		return EvStop
	case "session.started":
		return evStarted
	case "session.ended":
		return evEnded
	case "error.generic":
		return EvError
	}
	return EvOther
}

// Event flags.
const (
	fTS        uint16 = 1 << iota // timestamp_ns usable
	fUUID                         // sample_uuid usable (truthy, hashable)
	fUUIDExt                      // uuid is in ext, not packed hex
	fWarm                         // recv_first turn is null/missing or > 1
	FDataNull                     // data is null or missing
	fTurn                         // turn holds an integer
	fFirstLine                    // not used by phase 2; reserved
)

// Token count sentinels in event.tokens / event.full.
const (
	TokEmpty      = -1 // empty text: nothing to count
	TokNotCounted = -2 // non-empty text left uncounted (sampled tokenization)
)

// Event is the compact record phase 1 makes of one line that matters to
// the state machine.
type Event struct {
	Line   int64 // 1-based line number (block-local until rebased)
	ts     int64
	Kind   evKind
	Flags  uint16
	Turn   int32
	Tokens int32
	Full   int32
	NBytes int32 // byte length of the text after the first chunk
	uuid   [16]byte
	ext    string // uuid when not 32 lowercase hex digits
	Conv   string // conversation_id (interned)
	// Cause is what an error event's text names (errCause; zero when
	// nothing specific).
	Cause contract.ErrCause
}

// LineIssue is a problem found on one line.
type LineIssue struct {
	line  int64
	Kind  contract.Kind
	field string
}

// LineDecoder turns lines into events. One per worker; not safe for
// concurrent use.
type LineDecoder struct {
	Counter         scan.TokenCounter
	CountText       bool // count text after the first chunk
	CountFull       bool // count the full output of every COMPLETE
	CountConvs      bool // count the full output of COMPLETEs with a conversation id
	keepInvalidUTF8 bool

	Words   bool                // counter is a WhitespaceWordCounter
	pending scan.PendingCounter // counter still loading: countText per block
	// countWanted is countText as configured; with a pending counter
	// countText is it and the counter's readiness at the block's start.
	countWanted bool
	Ps          PayloadScratch
	pw          payloadWords // the one-pass payload scan of the line
	pwStart     int          // start of the data value pw describes (-1: none)
	utf8Known   bool         // the line's UTF-8 validity came with its facts
	Scratch     []byte
	interns     map[string]string

	Issues     []LineIssue
	OtherTypes map[string]int64
	Counts     [NumEvKinds]int64

	res    *blockResult                                                // block being decoded
	lineFn func(line []byte, lineNo int64, last bool, facts LineFacts) // d.decodeOne, bound once
	Facts  LineFacts                                                   // of the line decode is given next (zero: none known)
}

func (d *LineDecoder) Issue(line int64, k contract.Kind, field string) {
	d.Issues = append(d.Issues, LineIssue{line: line, Kind: k, field: field})
}

// Fields are the envelope keys the decoder reads.
type Fields struct {
	EventType, TS, UUID, Conv, Turn, Data scan.Value
}

// Decode decodes one stripped, non-empty line in one pass: the scanner
// validates the line, records the envelope fields and, on a COMPLETE
// line whose event_type comes before its data (as the writer emits it),
// measures and word-counts the output chunks on the escaped bytes as it
// validates them (scanPayloadWords). It reports whether ev was filled
// with an event phase 2 needs; problems go to d.issues.
//
// Per-kind event counters (d.counts) are taken right after the event type
// is known; that is the place to hook counters or checks that need the
// whole event (timestamps, order), before the switch on kind below.
func (d *LineDecoder) Decode(line []byte, lineNo int64, lastUnterminated bool, ev *Event) bool {
	facts := d.Facts
	d.Facts = 0
	if facts&FactsKnown == 0 && bytes.IndexByte(line, 0) >= 0 || facts&FactNUL != 0 {
		d.Issue(lineNo, contract.KindNUL, "")
		return false
	}
	if len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
		d.Issue(lineNo, contract.KindBOM, "")
		return false
	}
	var f Fields
	d.pwStart = -1
	d.utf8Known = facts&FactsKnown != 0
	err := d.scanEnvelope(line, &f)
	// The line split checked the line's UTF-8 when it knows its facts;
	// else the one-pass payload scan checked its strings' (and the bytes
	// before them): only the rest of the line is left.
	var valid bool
	switch {
	case d.utf8Known:
		valid = facts&FactBadUTF8 == 0
	case err == nil && d.pwStart >= 0 && d.pwStart == f.Data.Start:
		valid = !d.pw.badUTF8 && utf8.Valid(line[d.pw.utf8At:]) && utf8.Valid(line[:d.pwStart])
	default:
		valid = utf8.Valid(line)
	}
	if !valid {
		d.Issue(lineNo, contract.KindInvalidUTF8, "")
	}
	if err != nil {
		switch {
		case err == ErrValueNotObject:
			d.Issue(lineNo, contract.KindNotObject, "")
		case lastUnterminated:
			d.Issue(lineNo, contract.KindTruncatedLine, "")
		default:
			d.Issue(lineNo, contract.KindSyntax, "")
		}
		return false
	}
	kind := EvOther
	switch f.EventType.Kind {
	case scan.VString:
		var body []byte
		kind, body = d.eventKind(line, f.EventType)
		if kind == EvOther {
			if d.OtherTypes == nil {
				d.OtherTypes = make(map[string]int64)
			}
			d.OtherTypes[string(body)]++
		}
	case scan.VNone, scan.VNull:
		d.Issue(lineNo, contract.KindMissingField, "event_type")
	default:
		d.Issue(lineNo, contract.KindFieldType, "event_type")
	}
	d.Counts[kind]++
	switch kind {
	case EvStart, EvStop:
		*ev = Event{Line: lineNo, Kind: kind}
		d.ReadTS(line, f.TS, lineNo, ev)
		return true
	case EvIssued, EvRecvFirst, EvComplete, EvError:
	default:
		return false
	}
	*ev = Event{Line: lineNo, Kind: kind, Turn: -1, Tokens: TokEmpty, Full: TokEmpty}
	d.ReadTS(line, f.TS, lineNo, ev)
	if !d.ReadUUID(line, f.UUID, lineNo, ev) {
		if kind != EvError && (f.UUID.Kind == scan.VNone || f.UUID.Kind == scan.VNull || f.UUID.Kind == scan.VString) {
			d.Issue(lineNo, contract.KindMissingField, "sample_uuid")
		}
		return false
	}
	if (f.TS.Kind == scan.VNone || f.TS.Kind == scan.VNull) && kind != EvError {
		d.Issue(lineNo, contract.KindMissingField, "timestamp_ns")
	}
	switch kind {
	case EvIssued:
		d.ReadTurn(line, f.Turn, lineNo, ev)
		if f.Conv.Kind == scan.VString && f.Conv.End-f.Conv.Start > 2 {
			ev.Conv = d.Intern(line, f.Conv)
		}
	case EvRecvFirst:
		d.ReadTurn(line, f.Turn, lineNo, ev)
	case EvError:
		ev.Cause = d.ErrorCause(line, f.Data)
	case EvComplete:
		if f.Data.Kind == scan.VNone || f.Data.Kind == scan.VNull {
			ev.Flags |= FDataNull
			return true
		}
		d.readOutput(line, f.Data, valid, lineNo, ev)
		full := d.CountFull || d.CountConvs && f.Conv.Kind == scan.VString && f.Conv.End-f.Conv.Start > 2
		// A non-streamed output (one string, no chunks) has no text after a
		// first chunk; its whole count is the run's output tokens.
		full = full || ev.NBytes == 0 && d.CountText && d.Ps.NonStreamedOutput(line, f.Data)
		if full {
			text := d.Ps.FullOutputText(line, f.Data)
			if len(text) > 0 && d.Counter != nil {
				ev.Full = int32(d.Counter.Count(unsafe.String(unsafe.SliceData(text), len(text))))
			}
			if len(text) == 0 {
				ev.Full = 0
			}
		} else if ev.Tokens >= 0 || ev.Tokens == TokEmpty {
			d.countStreamed(line, f.Data, valid, ev)
		}
	}
	return true
}

// countStreamed sets ev.full of a streamed COMPLETE whose text after the
// first chunk was counted (or is empty): the first chunk's tokens plus
// those after it, every output token of the request (system throughput,
// design §5.8; TPOT keeps ev.tokens). Without a first chunk (not
// streamed) or a counter, ev.full stays uncounted.
func (d *LineDecoder) countStreamed(line []byte, data scan.Value, valid bool, ev *Event) {
	if !d.CountText || d.Counter == nil {
		return
	}
	if valid && d.Words {
		if n, ok := d.pw.firstChunkWords(); ok { // readOutput scanned data into d.pw
			ev.Full = int32(n + max(int(ev.Tokens), 0))
		}
		return
	}
	if text, ok := d.Ps.FirstChunkText(line, data); ok {
		ev.Full = int32(streamedWhole(d.Counter, text, int(ev.Tokens)))
	}
}

// streamedWhole is a streamed output's whole token count: its first
// chunk's (counted by c) plus after, the count of the text after it (< 0
// when empty).
func streamedWhole(c scan.TokenCounter, first []byte, after int) int {
	n := 0
	if len(first) > 0 {
		n = c.Count(unsafe.String(unsafe.SliceData(first), len(first)))
	}
	return n + max(after, 0)
}

// readOutput measures (and counts the tokens of) the output text after
// the first chunk of a validated COMPLETE payload. A whitespace-word
// counter on a valid UTF-8 line is served by the one-pass word runs;
// otherwise (a real tokenizer; a line that is not UTF-8, whose chunks may
// split a character; no counting at all, where the payload was skipped
// at memchr speed) the chunks are found again and, when there are
// several or escapes, joined once into a reused buffer.
func (d *LineDecoder) readOutput(line []byte, data scan.Value, valid bool, lineNo int64, ev *Event) {
	needText := d.CountText && d.Counter != nil
	if valid && d.Words && needText {
		if d.pwStart != data.Start {
			scanPayloadWords(line, data.Start, &d.pw, d.utf8Known) // data is valid JSON: cannot fail
		}
		run, bad := d.pw.textWords()
		if bad {
			d.Issue(lineNo, contract.KindFieldType, "data")
		}
		ev.NBytes = int32(min(run.Bytes, 1<<31-1))
		if run.Bytes > 0 {
			ev.Tokens = TokNotCounted
			if needText {
				ev.Tokens = int32(run.Words)
			}
		}
		return
	}
	text, bad := d.Ps.TextAfterFirstChunk(line, data)
	if bad {
		d.Issue(lineNo, contract.KindFieldType, "data")
	}
	ev.NBytes = int32(min(len(text), 1<<31-1))
	if len(text) > 0 {
		ev.Tokens = TokNotCounted
		if needText {
			ev.Tokens = int32(d.Counter.Count(unsafe.String(unsafe.SliceData(text), len(text))))
		}
	}
}

// eventKind returns the event type of the string value v and its decoded
// body (which may alias d.scratch).
func (d *LineDecoder) eventKind(line []byte, v scan.Value) (evKind, []byte) {
	body := line[v.Start+1 : v.End-1]
	if v.Esc {
		d.Scratch = scan.AppendUnescaped(d.Scratch[:0], line, v)
		body = d.Scratch
	}
	return LookupEvKind(body), body
}

// ErrValueNotObject is scanEnvelope's report of a valid non-object line.
var ErrValueNotObject = errors.New("json value is not an object")

// scanEnvelope validates the line as one JSON object and records the
// spans of the envelope keys (last duplicate wins). When the decoder
// counts whitespace words, a data value that follows an event_type of
// sample.complete is scanned by scanPayloadWords into d.pw (d.pwStart is
// its start), so its chunks are read once.
func (d *LineDecoder) scanEnvelope(line []byte, f *Fields) error {
	i := scan.SkipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		v, err := scan.ScanValue(line, i, 0)
		if err == nil && scan.SkipWS(line, v.End) == len(line) {
			return ErrValueNotObject
		}
		return scan.ErrJSON
	}
	complete := false // the last event_type so far is sample.complete
	i = scan.SkipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		i++
	} else {
		for {
			if i >= len(line) || line[i] != '"' {
				return scan.ErrJSON
			}
			kend, kesc, err := scan.ScanString(line, i)
			if err != nil {
				return err
			}
			key := line[i+1 : kend-1]
			if kesc {
				d.Scratch = scan.AppendUnescaped(d.Scratch[:0], line, scan.Value{Kind: scan.VString, Esc: true, Start: i, End: kend})
				key = d.Scratch
			}
			var slot *scan.Value
			isData := false
			switch string(key) {
			case "event_type":
				slot = &f.EventType
			case "timestamp_ns":
				slot = &f.TS
			case "sample_uuid":
				slot = &f.UUID
			case "conversation_id":
				slot = &f.Conv
			case "turn":
				slot = &f.Turn
			case "data":
				slot, isData = &f.Data, true
			}
			i = scan.SkipWS(line, kend)
			if i >= len(line) || line[i] != ':' {
				return scan.ErrJSON
			}
			i = scan.SkipWS(line, i+1)
			var v scan.Value
			if isData && complete && d.Words && d.CountText {
				v, err = scanPayloadWords(line, i, &d.pw, d.utf8Known)
				d.pwStart = i
			} else {
				v, err = scan.ScanValue(line, i, 1)
			}
			if err != nil {
				return err
			}
			if slot != nil {
				*slot = v
				if slot == &f.EventType {
					complete = false
					if v.Kind == scan.VString {
						k, _ := d.eventKind(line, v)
						complete = k == EvComplete
					}
				}
			}
			i = scan.SkipWS(line, v.End)
			if i >= len(line) {
				return scan.ErrJSON
			}
			if line[i] == '}' {
				i++
				break
			}
			if line[i] != ',' {
				return scan.ErrJSON
			}
			i = scan.SkipWS(line, i+1)
		}
	}
	if scan.SkipWS(line, i) != len(line) {
		return scan.ErrJSON // "Extra data"
	}
	return nil
}

// ReadTS reads timestamp_ns. Integers (and booleans, as Python ints) are
// used; floats are truncated with a warning; strings and containers are
// a warning and read as null.
func (d *LineDecoder) ReadTS(line []byte, v scan.Value, lineNo int64, ev *Event) {
	switch v.Kind {
	case scan.VNumber:
		n, f, isFloat, ok := scan.NumberInt(line, v)
		if isFloat {
			d.Issue(lineNo, contract.KindFieldType, "timestamp_ns")
			if ok && f >= -9.2e18 && f <= 9.2e18 {
				ev.ts, ev.Flags = int64(f), ev.Flags|fTS
			}
			return
		}
		if !ok {
			d.Issue(lineNo, contract.KindFieldType, "timestamp_ns")
			return
		}
		ev.ts, ev.Flags = n, ev.Flags|fTS
	case scan.VTrue:
		ev.ts, ev.Flags = 1, ev.Flags|fTS
	case scan.VFalse:
		ev.ts, ev.Flags = 0, ev.Flags|fTS
	case scan.VNone, scan.VNull:
	default:
		d.Issue(lineNo, contract.KindFieldType, "timestamp_ns")
	}
}

// ReadUUID reads sample_uuid into ev. It reports false when the event
// cannot be matched to a sample: a falsy uuid (silently), or an array or
// object (a warning: the reference crashes on it).
func (d *LineDecoder) ReadUUID(line []byte, v scan.Value, lineNo int64, ev *Event) bool {
	switch v.Kind {
	case scan.VString:
		body := line[v.Start+1 : v.End-1]
		if !v.Esc && len(body) == 32 && scan.PackHex(&ev.uuid, body) {
			ev.Flags |= fUUID
			return true
		}
		d.Scratch = scan.AppendUnescaped(d.Scratch[:0], line, v)
		if len(d.Scratch) == 0 {
			return false
		}
		if len(d.Scratch) == 32 && scan.PackHex(&ev.uuid, d.Scratch) {
			ev.Flags |= fUUID
			return true
		}
		ev.ext = string(d.Scratch)
		ev.Flags |= fUUID | fUUIDExt
		return true
	case scan.VNumber, scan.VTrue:
		if !scan.Truthy(line, v) {
			return false
		}
		// Python keys a number by value; the raw text is close enough.
		ev.ext = "\x00" + string(line[v.Start:v.End])
		ev.Flags |= fUUID | fUUIDExt
		return true
	case scan.VArray, scan.VObject:
		if ev.Kind == EvIssued && !scan.Truthy(line, v) {
			return false
		}
		d.Issue(lineNo, contract.KindFieldType, "sample_uuid")
		return false
	}
	return false
}

// ReadTurn reads turn: integers set ev.turn; the warm rule of §3.5 is
// "null/missing or > 1". Strings and containers warn and read as null.
func (d *LineDecoder) ReadTurn(line []byte, v scan.Value, lineNo int64, ev *Event) {
	switch v.Kind {
	case scan.VNone, scan.VNull:
		ev.Flags |= fWarm
	case scan.VTrue, scan.VFalse:
		if v.Kind == scan.VTrue {
			ev.Turn = 1
		} else {
			ev.Turn = 0
		}
		ev.Flags |= fTurn
	case scan.VNumber:
		n, f, isFloat, ok := scan.NumberInt(line, v)
		switch {
		case isFloat:
			if f > 1 { // NaN compares false: cold, as in Python
				ev.Flags |= fWarm
			}
		case ok:
			if n > 1 {
				ev.Flags |= fWarm
			}
			if n >= -1<<31 && n < 1<<31 {
				ev.Turn = int32(n)
				ev.Flags |= fTurn
			}
		default: // huge integer
			if line[v.Start] != '-' {
				ev.Flags |= fWarm
			}
		}
	default:
		d.Issue(lineNo, contract.KindFieldType, "turn")
		ev.Flags |= fWarm
	}
}

func (d *LineDecoder) Intern(line []byte, v scan.Value) string {
	b := line[v.Start+1 : v.End-1]
	if v.Esc {
		d.Scratch = scan.AppendUnescaped(d.Scratch[:0], line, v)
		b = d.Scratch
	}
	if s, ok := d.interns[string(b)]; ok {
		return s
	}
	if d.interns == nil {
		d.interns = make(map[string]string)
	}
	s := string(b)
	d.interns[s] = s
	return s
}
