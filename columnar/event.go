package columnar

import (
	"bytes"
	"errors"
	"unicode/utf8"
	"unsafe"
)

// evKind is the event type of a decoded line.
type evKind uint8

// Event types. evOther covers unknown or missing types.
const (
	evOther evKind = iota
	evStarted
	evStart
	evStop
	evEnded
	evIssued
	evRecvFirst
	evRecvNonFirst
	evComplete
	evError
	numEvKinds
)

var evNames = [numEvKinds]string{
	evOther:        "other",
	evStarted:      "session.started",
	evStart:        "session.start_performance_tracking",
	evStop:         "session.stop_performance_tracking",
	evEnded:        "session.ended",
	evIssued:       "sample.issued",
	evRecvFirst:    "sample.recv_first",
	evRecvNonFirst: "sample.recv_non_first",
	evComplete:     "sample.complete",
	evError:        "error.generic",
}

func lookupEvKind(s []byte) evKind {
	switch string(s) {
	case "sample.issued":
		return evIssued
	case "sample.recv_first":
		return evRecvFirst
	case "sample.complete":
		return evComplete
	case "sample.recv_non_first":
		return evRecvNonFirst
	case "session.start_performance_tracking":
		return evStart
	case "session.stop_performance_tracking":
		return evStop
	case "session.started":
		return evStarted
	case "session.ended":
		return evEnded
	case "error.generic":
		return evError
	}
	return evOther
}

// Event flags.
const (
	fTS        uint16 = 1 << iota // timestamp_ns usable
	fUUID                         // sample_uuid usable (truthy, hashable)
	fUUIDExt                      // uuid is in ext, not packed hex
	fWarm                         // recv_first turn is null/missing or > 1
	fDataNull                     // data is null or missing
	fTurn                         // turn holds an integer
	fFirstLine                    // not used by phase 2; reserved
)

// Token count sentinels in event.tokens / event.full.
const (
	tokEmpty      = -1 // empty text: nothing to count
	tokNotCounted = -2 // non-empty text left uncounted (sampled tokenization)
)

// event is the compact record phase 1 makes of one line that matters to
// the state machine.
type event struct {
	line   int64 // 1-based line number (block-local until rebased)
	ts     int64
	kind   evKind
	flags  uint16
	turn   int32
	tokens int32
	full   int32
	nbytes int32 // byte length of the text after the first chunk
	uuid   [16]byte
	ext    string // uuid when not 32 lowercase hex digits
	conv   string // conversation_id (interned)
	// cause is what an error event's text names (errCause; zero when
	// nothing specific).
	cause errCause
}

// lineIssue is a problem found on one line.
type lineIssue struct {
	line  int64
	kind  Kind
	field string
}

// lineDecoder turns lines into events. One per worker; not safe for
// concurrent use.
type lineDecoder struct {
	counter         TokenCounter
	countText       bool // count text after the first chunk
	countFull       bool // count the full output of every COMPLETE
	countConvs      bool // count the full output of COMPLETEs with a conversation id
	keepInvalidUTF8 bool

	words   bool           // counter is a WhitespaceWordCounter
	pending PendingCounter // counter still loading: countText per block
	// countWanted is countText as configured; with a pending counter
	// countText is it and the counter's readiness at the block's start.
	countWanted bool
	ps          payloadScratch
	pw          payloadWords // the one-pass payload scan of the line
	pwStart     int          // start of the data value pw describes (-1: none)
	scratch     []byte
	interns     map[string]string

	issues     []lineIssue
	otherTypes map[string]int64
	counts     [numEvKinds]int64

	res    *blockResult                                                // block being decoded
	lineFn func(line []byte, lineNo int64, last bool, facts lineFacts) // d.decodeOne, bound once
	facts  lineFacts                                                   // of the line decode is given next (zero: none known)
}

func (d *lineDecoder) issue(line int64, k Kind, field string) {
	d.issues = append(d.issues, lineIssue{line: line, kind: k, field: field})
}

// fields are the envelope keys the decoder reads.
type fields struct {
	eventType, ts, uuid, conv, turn, data value
}

// decode decodes one stripped, non-empty line in one pass: the scanner
// validates the line, records the envelope fields and, on a COMPLETE
// line whose event_type comes before its data (as the writer emits it),
// measures and word-counts the output chunks on the escaped bytes as it
// validates them (scanPayloadWords). It reports whether ev was filled
// with an event phase 2 needs; problems go to d.issues.
//
// Per-kind event counters (d.counts) are taken right after the event type
// is known; that is the place to hook counters or checks that need the
// whole event (timestamps, order), before the switch on kind below.
func (d *lineDecoder) decode(line []byte, lineNo int64, lastUnterminated bool, ev *event) bool {
	facts := d.facts
	d.facts = 0
	if facts&factsKnown == 0 && bytes.IndexByte(line, 0) >= 0 || facts&factNUL != 0 {
		d.issue(lineNo, KindNUL, "")
		return false
	}
	if len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
		d.issue(lineNo, KindBOM, "")
		return false
	}
	var f fields
	d.pwStart = -1
	err := d.scanEnvelope(line, &f)
	// The one-pass payload scan checked its strings' UTF-8 (and the bytes
	// before them): only the rest of the line is left.
	var valid bool
	switch {
	case facts&(factsKnown|factHigh) == factsKnown:
		valid = true // ASCII
	case err == nil && d.pwStart >= 0 && d.pwStart == f.data.start:
		valid = !d.pw.badUTF8 && utf8.Valid(line[d.pw.utf8At:]) && utf8.Valid(line[:d.pwStart])
	default:
		valid = utf8.Valid(line)
	}
	if !valid {
		d.issue(lineNo, KindInvalidUTF8, "")
	}
	if err != nil {
		switch {
		case err == errNotObject:
			d.issue(lineNo, KindNotObject, "")
		case lastUnterminated:
			d.issue(lineNo, KindTruncatedLine, "")
		default:
			d.issue(lineNo, KindSyntax, "")
		}
		return false
	}
	kind := evOther
	switch f.eventType.kind {
	case vString:
		var body []byte
		kind, body = d.eventKind(line, f.eventType)
		if kind == evOther {
			if d.otherTypes == nil {
				d.otherTypes = make(map[string]int64)
			}
			d.otherTypes[string(body)]++
		}
	case vNone, vNull:
		d.issue(lineNo, KindMissingField, "event_type")
	default:
		d.issue(lineNo, KindFieldType, "event_type")
	}
	d.counts[kind]++
	switch kind {
	case evStart, evStop:
		*ev = event{line: lineNo, kind: kind}
		d.readTS(line, f.ts, lineNo, ev)
		return true
	case evIssued, evRecvFirst, evComplete, evError:
	default:
		return false
	}
	*ev = event{line: lineNo, kind: kind, turn: -1, tokens: tokEmpty, full: tokEmpty}
	d.readTS(line, f.ts, lineNo, ev)
	if !d.readUUID(line, f.uuid, lineNo, ev) {
		if kind != evError && (f.uuid.kind == vNone || f.uuid.kind == vNull || f.uuid.kind == vString) {
			d.issue(lineNo, KindMissingField, "sample_uuid")
		}
		return false
	}
	if (f.ts.kind == vNone || f.ts.kind == vNull) && kind != evError {
		d.issue(lineNo, KindMissingField, "timestamp_ns")
	}
	switch kind {
	case evIssued:
		d.readTurn(line, f.turn, lineNo, ev)
		if f.conv.kind == vString && f.conv.end-f.conv.start > 2 {
			ev.conv = d.intern(line, f.conv)
		}
	case evRecvFirst:
		d.readTurn(line, f.turn, lineNo, ev)
	case evError:
		ev.cause = d.errorCause(line, f.data)
	case evComplete:
		if f.data.kind == vNone || f.data.kind == vNull {
			ev.flags |= fDataNull
			return true
		}
		d.readOutput(line, f.data, valid, lineNo, ev)
		full := d.countFull || d.countConvs && f.conv.kind == vString && f.conv.end-f.conv.start > 2
		// A non-streamed output (one string, no chunks) has no text after a
		// first chunk; its whole count is the run's output tokens.
		full = full || ev.nbytes == 0 && d.countText && d.ps.nonStreamedOutput(line, f.data)
		if full {
			text := d.ps.fullOutputText(line, f.data)
			if len(text) > 0 && d.counter != nil {
				ev.full = int32(d.counter.Count(unsafe.String(unsafe.SliceData(text), len(text))))
			}
			if len(text) == 0 {
				ev.full = 0
			}
		} else if ev.tokens >= 0 || ev.tokens == tokEmpty {
			d.countStreamed(line, f.data, valid, ev)
		}
	}
	return true
}

// countStreamed sets ev.full of a streamed COMPLETE whose text after the
// first chunk was counted (or is empty): the first chunk's tokens plus
// those after it, every output token of the request (system throughput,
// design §5.8; TPOT keeps ev.tokens). Without a first chunk (not
// streamed) or a counter, ev.full stays uncounted.
func (d *lineDecoder) countStreamed(line []byte, data value, valid bool, ev *event) {
	if !d.countText || d.counter == nil {
		return
	}
	if valid && d.words {
		if n, ok := d.pw.firstChunkWords(); ok { // readOutput scanned data into d.pw
			ev.full = int32(n + max(int(ev.tokens), 0))
		}
		return
	}
	if text, ok := d.ps.firstChunkText(line, data); ok {
		ev.full = int32(streamedWhole(d.counter, text, int(ev.tokens)))
	}
}

// streamedWhole is a streamed output's whole token count: its first
// chunk's (counted by c) plus after, the count of the text after it (< 0
// when empty).
func streamedWhole(c TokenCounter, first []byte, after int) int {
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
func (d *lineDecoder) readOutput(line []byte, data value, valid bool, lineNo int64, ev *event) {
	needText := d.countText && d.counter != nil
	if valid && d.words && needText {
		if d.pwStart != data.start {
			scanPayloadWords(line, data.start, &d.pw) // data is valid JSON: cannot fail
		}
		run, bad := d.pw.textWords()
		if bad {
			d.issue(lineNo, KindFieldType, "data")
		}
		ev.nbytes = int32(min(run.bytes, 1<<31-1))
		if run.bytes > 0 {
			ev.tokens = tokNotCounted
			if needText {
				ev.tokens = int32(run.words)
			}
		}
		return
	}
	text, bad := d.ps.textAfterFirstChunk(line, data)
	if bad {
		d.issue(lineNo, KindFieldType, "data")
	}
	ev.nbytes = int32(min(len(text), 1<<31-1))
	if len(text) > 0 {
		ev.tokens = tokNotCounted
		if needText {
			ev.tokens = int32(d.counter.Count(unsafe.String(unsafe.SliceData(text), len(text))))
		}
	}
}

// eventKind returns the event type of the string value v and its decoded
// body (which may alias d.scratch).
func (d *lineDecoder) eventKind(line []byte, v value) (evKind, []byte) {
	body := line[v.start+1 : v.end-1]
	if v.esc {
		d.scratch = appendUnescaped(d.scratch[:0], line, v)
		body = d.scratch
	}
	return lookupEvKind(body), body
}

// errNotObject is scanEnvelope's report of a valid non-object line.
var errNotObject = errors.New("json value is not an object")

// scanEnvelope validates the line as one JSON object and records the
// spans of the envelope keys (last duplicate wins). When the decoder
// counts whitespace words, a data value that follows an event_type of
// sample.complete is scanned by scanPayloadWords into d.pw (d.pwStart is
// its start), so its chunks are read once.
func (d *lineDecoder) scanEnvelope(line []byte, f *fields) error {
	i := skipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		v, err := scanValue(line, i, 0)
		if err == nil && skipWS(line, v.end) == len(line) {
			return errNotObject
		}
		return errJSON
	}
	complete := false // the last event_type so far is sample.complete
	i = skipWS(line, i+1)
	if i < len(line) && line[i] == '}' {
		i++
	} else {
		for {
			if i >= len(line) || line[i] != '"' {
				return errJSON
			}
			kend, kesc, err := scanString(line, i)
			if err != nil {
				return err
			}
			key := line[i+1 : kend-1]
			if kesc {
				d.scratch = appendUnescaped(d.scratch[:0], line, value{kind: vString, esc: true, start: i, end: kend})
				key = d.scratch
			}
			var slot *value
			isData := false
			switch string(key) {
			case "event_type":
				slot = &f.eventType
			case "timestamp_ns":
				slot = &f.ts
			case "sample_uuid":
				slot = &f.uuid
			case "conversation_id":
				slot = &f.conv
			case "turn":
				slot = &f.turn
			case "data":
				slot, isData = &f.data, true
			}
			i = skipWS(line, kend)
			if i >= len(line) || line[i] != ':' {
				return errJSON
			}
			i = skipWS(line, i+1)
			var v value
			if isData && complete && d.words && d.countText {
				v, err = scanPayloadWords(line, i, &d.pw)
				d.pwStart = i
			} else {
				v, err = scanValue(line, i, 1)
			}
			if err != nil {
				return err
			}
			if slot != nil {
				*slot = v
				if slot == &f.eventType {
					complete = false
					if v.kind == vString {
						k, _ := d.eventKind(line, v)
						complete = k == evComplete
					}
				}
			}
			i = skipWS(line, v.end)
			if i >= len(line) {
				return errJSON
			}
			if line[i] == '}' {
				i++
				break
			}
			if line[i] != ',' {
				return errJSON
			}
			i = skipWS(line, i+1)
		}
	}
	if skipWS(line, i) != len(line) {
		return errJSON // "Extra data"
	}
	return nil
}

// readTS reads timestamp_ns. Integers (and booleans, as Python ints) are
// used; floats are truncated with a warning; strings and containers are
// a warning and read as null.
func (d *lineDecoder) readTS(line []byte, v value, lineNo int64, ev *event) {
	switch v.kind {
	case vNumber:
		n, f, isFloat, ok := numberInt(line, v)
		if isFloat {
			d.issue(lineNo, KindFieldType, "timestamp_ns")
			if ok && f >= -9.2e18 && f <= 9.2e18 {
				ev.ts, ev.flags = int64(f), ev.flags|fTS
			}
			return
		}
		if !ok {
			d.issue(lineNo, KindFieldType, "timestamp_ns")
			return
		}
		ev.ts, ev.flags = n, ev.flags|fTS
	case vTrue:
		ev.ts, ev.flags = 1, ev.flags|fTS
	case vFalse:
		ev.ts, ev.flags = 0, ev.flags|fTS
	case vNone, vNull:
	default:
		d.issue(lineNo, KindFieldType, "timestamp_ns")
	}
}

// readUUID reads sample_uuid into ev. It reports false when the event
// cannot be matched to a sample: a falsy uuid (silently), or an array or
// object (a warning: the reference crashes on it).
func (d *lineDecoder) readUUID(line []byte, v value, lineNo int64, ev *event) bool {
	switch v.kind {
	case vString:
		body := line[v.start+1 : v.end-1]
		if !v.esc && len(body) == 32 && packHex(&ev.uuid, body) {
			ev.flags |= fUUID
			return true
		}
		d.scratch = appendUnescaped(d.scratch[:0], line, v)
		if len(d.scratch) == 0 {
			return false
		}
		if len(d.scratch) == 32 && packHex(&ev.uuid, d.scratch) {
			ev.flags |= fUUID
			return true
		}
		ev.ext = string(d.scratch)
		ev.flags |= fUUID | fUUIDExt
		return true
	case vNumber, vTrue:
		if !truthy(line, v) {
			return false
		}
		// Python keys a number by value; the raw text is close enough.
		ev.ext = "\x00" + string(line[v.start:v.end])
		ev.flags |= fUUID | fUUIDExt
		return true
	case vArray, vObject:
		if ev.kind == evIssued && !truthy(line, v) {
			return false
		}
		d.issue(lineNo, KindFieldType, "sample_uuid")
		return false
	}
	return false
}

// readTurn reads turn: integers set ev.turn; the warm rule of §3.5 is
// "null/missing or > 1". Strings and containers warn and read as null.
func (d *lineDecoder) readTurn(line []byte, v value, lineNo int64, ev *event) {
	switch v.kind {
	case vNone, vNull:
		ev.flags |= fWarm
	case vTrue, vFalse:
		if v.kind == vTrue {
			ev.turn = 1
		} else {
			ev.turn = 0
		}
		ev.flags |= fTurn
	case vNumber:
		n, f, isFloat, ok := numberInt(line, v)
		switch {
		case isFloat:
			if f > 1 { // NaN compares false: cold, as in Python
				ev.flags |= fWarm
			}
		case ok:
			if n > 1 {
				ev.flags |= fWarm
			}
			if n >= -1<<31 && n < 1<<31 {
				ev.turn = int32(n)
				ev.flags |= fTurn
			}
		default: // huge integer
			if line[v.start] != '-' {
				ev.flags |= fWarm
			}
		}
	default:
		d.issue(lineNo, KindFieldType, "turn")
		ev.flags |= fWarm
	}
}

func (d *lineDecoder) intern(line []byte, v value) string {
	b := line[v.start+1 : v.end-1]
	if v.esc {
		d.scratch = appendUnescaped(d.scratch[:0], line, v)
		b = d.scratch
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

// packHex packs 32 lowercase hex digits into dst.
func packHex(dst *[16]byte, s []byte) bool {
	_ = s[31]
	bad := byte(0)
	for i := 0; i < 16; i++ {
		hi, lo := hexNibble[s[2*i]], hexNibble[s[2*i+1]]
		bad |= hi | lo
		dst[i] = hi<<4 | lo&15
	}
	return bad&0x10 == 0
}

// hexNibble maps a lowercase hex digit to its value and any other byte to
// 0x10 (packHex ORs them to find one).
var hexNibble = func() (t [256]byte) {
	for c := range t {
		v, ok := lowerHex(byte(c))
		if !ok {
			v = 0x10
		}
		t[c] = v
	}
	return t
}()

func lowerHex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// unpackHex renders a packed uuid as 32 lowercase hex digits.
func unpackHex(u [16]byte) string {
	const hex = "0123456789abcdef"
	var b [32]byte
	for i, c := range u {
		b[2*i], b[2*i+1] = hex[c>>4], hex[c&15]
	}
	return string(b[:])
}
