package columnar

// The decoder before the one-pass scanner (commit 5ade8c5), kept as the
// oracle the fast path is tested and fuzzed against: it validates the
// whole line, then walks the payload again to find the chunks, joins them
// into a buffer and counts the joined text with the counter's Count.

import (
	"bytes"
	"unicode/utf8"
	"unsafe"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// decode decodes one stripped, non-empty line. It reports whether ev was
// filled with an event phase 2 needs; problems go to d.issues.
func decodeOracle(d *endpoints.LineDecoder, line []byte, lineNo int64, lastUnterminated bool, ev *endpoints.Event) bool {
	if bytes.IndexByte(line, 0) >= 0 {
		d.Issue(lineNo, contract.KindNUL, "")
		return false
	}
	if len(line) >= 3 && line[0] == 0xEF && line[1] == 0xBB && line[2] == 0xBF {
		d.Issue(lineNo, contract.KindBOM, "")
		return false
	}
	if !utf8.Valid(line) {
		d.Issue(lineNo, contract.KindInvalidUTF8, "")
	}
	var f endpoints.Fields
	if err := scanEnvelopeOracle(d, line, &f); err != nil {
		switch {
		case err == endpoints.ErrValueNotObject:
			d.Issue(lineNo, contract.KindNotObject, "")
		case lastUnterminated:
			d.Issue(lineNo, contract.KindTruncatedLine, "")
		default:
			d.Issue(lineNo, contract.KindSyntax, "")
		}
		return false
	}
	kind := endpoints.EvOther
	switch f.EventType.Kind {
	case scan.VString:
		body := line[f.EventType.Start+1 : f.EventType.End-1]
		if f.EventType.Esc {
			d.Scratch = scan.AppendUnescaped(d.Scratch[:0], line, f.EventType)
			body = d.Scratch
		}
		kind = endpoints.LookupEvKind(body)
		if kind == endpoints.EvOther {
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
	case endpoints.EvStart, endpoints.EvStop:
		*ev = endpoints.Event{Line: lineNo, Kind: kind}
		d.ReadTS(line, f.TS, lineNo, ev)
		return true
	case endpoints.EvIssued, endpoints.EvRecvFirst, endpoints.EvComplete, endpoints.EvError:
	default:
		return false
	}
	*ev = endpoints.Event{Line: lineNo, Kind: kind, Turn: -1, Tokens: endpoints.TokEmpty, Full: endpoints.TokEmpty}
	d.ReadTS(line, f.TS, lineNo, ev)
	if !d.ReadUUID(line, f.UUID, lineNo, ev) {
		if kind != endpoints.EvError && (f.UUID.Kind == scan.VNone || f.UUID.Kind == scan.VNull || f.UUID.Kind == scan.VString) {
			d.Issue(lineNo, contract.KindMissingField, "sample_uuid")
		}
		return false
	}
	if (f.TS.Kind == scan.VNone || f.TS.Kind == scan.VNull) && kind != endpoints.EvError {
		d.Issue(lineNo, contract.KindMissingField, "timestamp_ns")
	}
	switch kind {
	case endpoints.EvIssued:
		d.ReadTurn(line, f.Turn, lineNo, ev)
		if f.Conv.Kind == scan.VString && f.Conv.End-f.Conv.Start > 2 {
			ev.Conv = d.Intern(line, f.Conv)
		}
	case endpoints.EvRecvFirst:
		d.ReadTurn(line, f.Turn, lineNo, ev)
	case endpoints.EvError:
		ev.Cause = d.ErrorCause(line, f.Data)
	case endpoints.EvComplete:
		if f.Data.Kind == scan.VNone || f.Data.Kind == scan.VNull {
			ev.Flags |= endpoints.FDataNull
			return true
		}
		text, bad := d.Ps.TextAfterFirstChunk(line, f.Data)
		if bad {
			d.Issue(lineNo, contract.KindFieldType, "data")
		}
		ev.NBytes = int32(min(len(text), 1<<31-1))
		if len(text) > 0 {
			ev.Tokens = endpoints.TokNotCounted
			if d.CountText && d.Counter != nil {
				ev.Tokens = int32(d.Counter.Count(unsafe.String(unsafe.SliceData(text), len(text))))
			}
		}
		full := d.CountFull || d.CountConvs && f.Conv.Kind == scan.VString && f.Conv.End-f.Conv.Start > 2
		full = full || len(text) == 0 && d.CountText && d.Ps.NonStreamedOutput(line, f.Data)
		if full {
			text := d.Ps.FullOutputText(line, f.Data)
			if len(text) > 0 && d.Counter != nil {
				ev.Full = int32(d.Counter.Count(unsafe.String(unsafe.SliceData(text), len(text))))
			}
			if len(text) == 0 {
				ev.Full = 0
			}
		} else if (ev.Tokens >= 0 || ev.Tokens == endpoints.TokEmpty) && d.CountText && d.Counter != nil {
			// A streamed output's whole count: its first chunk plus the rest.
			if first, ok := d.Ps.FirstChunkText(line, f.Data); ok {
				n := 0
				if len(first) > 0 {
					n = d.Counter.Count(string(first))
				}
				ev.Full = int32(n + max(int(ev.Tokens), 0))
			}
		}
	}
	return true
}

// scanEnvelope validates the line as one JSON object and records the
// spans of the envelope keys (last duplicate wins).
func scanEnvelopeOracle(d *endpoints.LineDecoder, line []byte, f *endpoints.Fields) error {
	i := scan.SkipWS(line, 0)
	if i >= len(line) || line[i] != '{' {
		v, err := scan.ScanValue(line, i, 0)
		if err == nil && scan.SkipWS(line, v.End) == len(line) {
			return endpoints.ErrValueNotObject
		}
		return scan.ErrJSON
	}
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
				slot = &f.Data
			}
			i = scan.SkipWS(line, kend)
			if i >= len(line) || line[i] != ':' {
				return scan.ErrJSON
			}
			i = scan.SkipWS(line, i+1)
			v, err := scan.ScanValue(line, i, 1)
			if err != nil {
				return err
			}
			if slot != nil {
				*slot = v
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
