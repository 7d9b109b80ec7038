package columnar

// The decoder before the one-pass scanner (commit 5ade8c5), kept as the
// oracle the fast path is tested and fuzzed against: it validates the
// whole line, then walks the payload again to find the chunks, joins them
// into a buffer and counts the joined text with the counter's Count.

import (
	"bytes"
	"unicode/utf8"
	"unsafe"
)

// decode decodes one stripped, non-empty line. It reports whether ev was
// filled with an event phase 2 needs; problems go to d.issues.
func (d *lineDecoder) decodeOracle(line []byte, lineNo int64, lastUnterminated bool, ev *event) bool {
	if bytes.IndexByte(line, 0) >= 0 {
		d.issue(lineNo, KindNUL, "")
		return false
	}
	if len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
		d.issue(lineNo, KindBOM, "")
		return false
	}
	if !utf8.Valid(line) {
		d.issue(lineNo, KindInvalidUTF8, "")
	}
	var f fields
	if err := d.scanEnvelopeOracle(line, &f); err != nil {
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
		body := line[f.eventType.start+1 : f.eventType.end-1]
		if f.eventType.esc {
			d.scratch = appendUnescaped(d.scratch[:0], line, f.eventType)
			body = d.scratch
		}
		kind = lookupEvKind(body)
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
		text, bad := d.ps.textAfterFirstChunk(line, f.data)
		if bad {
			d.issue(lineNo, KindFieldType, "data")
		}
		ev.nbytes = int32(min(len(text), 1<<31-1))
		if len(text) > 0 {
			ev.tokens = tokNotCounted
			if d.countText && d.counter != nil {
				ev.tokens = int32(d.counter.Count(unsafe.String(unsafe.SliceData(text), len(text))))
			}
		}
		full := d.countFull || d.countConvs && f.conv.kind == vString && f.conv.end-f.conv.start > 2
		full = full || len(text) == 0 && d.countText && d.ps.nonStreamedOutput(line, f.data)
		if full {
			text := d.ps.fullOutputText(line, f.data)
			if len(text) > 0 && d.counter != nil {
				ev.full = int32(d.counter.Count(unsafe.String(unsafe.SliceData(text), len(text))))
			}
			if len(text) == 0 {
				ev.full = 0
			}
		} else if (ev.tokens >= 0 || ev.tokens == tokEmpty) && d.countText && d.counter != nil {
			// A streamed output's whole count: its first chunk plus the rest.
			if first, ok := d.ps.firstChunkText(line, f.data); ok {
				n := 0
				if len(first) > 0 {
					n = d.counter.Count(string(first))
				}
				ev.full = int32(n + max(int(ev.tokens), 0))
			}
		}
	}
	return true
}

// scanEnvelope validates the line as one JSON object and records the
// spans of the envelope keys (last duplicate wins).
func (d *lineDecoder) scanEnvelopeOracle(line []byte, f *fields) error {
	i := skipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		v, err := scanValue(line, i, 0)
		if err == nil && skipWS(line, v.end) == len(line) {
			return errNotObject
		}
		return errJSON
	}
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
				slot = &f.data
			}
			i = skipWS(line, kend)
			if i >= len(line) || line[i] != ':' {
				return errJSON
			}
			i = skipWS(line, i+1)
			v, err := scanValue(line, i, 1)
			if err != nil {
				return err
			}
			if slot != nil {
				*slot = v
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
