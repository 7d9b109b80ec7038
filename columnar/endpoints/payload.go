package endpoints

import (
	"strconv"
	"unicode/utf8"

	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// This file reduces a sample.complete payload ["TextModelOutput", output,
// reasoning, tool_calls] to the text the token counter needs.

// payloadWords is what one pass over a COMPLETE payload ["TextModelOutput",
// output, reasoning, tool_calls] learns for the whitespace-word count of
// the text after the first chunk: the word runs of every chunk group that
// textAfterFirstChunk may join, and the kinds and truthiness that decide
// which groups it joins (the reasoning, which decides, comes after the
// output in the line).
type payloadWords struct {
	array, nonEmpty       bool
	outKind, reasKind     scan.ValueKind
	outTruthy, reasTruthy bool
	outStr                scan.WordRun // output as one string
	out0, outRest         scan.WordRun // output as a chunk list: the first chunk, the others
	reasRest              scan.WordRun // reasoning chunks after the first
	reas0                 scan.WordRun // the reasoning's first chunk
	badReas0              bool         // reas0 is not a string
	bad0, badRest         bool         // a non-string among out0 / outRest
	badReas               bool         // a non-string among reasRest

	// utf8At and badUTF8 check the line's UTF-8 as it is scanned: bytes
	// before utf8At are checked (the strings counted here by the word
	// loop, the bytes between them by utf8.Valid), unless utf8Known: the
	// line split checked the whole line already.
	utf8At    int
	badUTF8   bool
	utf8Known bool
}

// words scans the string at b[i] into run, checking the line's UTF-8 up
// to its end; with chunks, the strings of the chunk list that directly
// follow it too (scan.ScanChunkWords).
func (p *payloadWords) words(b []byte, i int, run *scan.WordRun, chunks bool) (int, error) {
	if !p.utf8Known && !p.badUTF8 && !utf8.Valid(b[p.utf8At:i]) {
		p.badUTF8 = true
	}
	var end int
	var err error
	switch {
	case p.utf8Known:
		end, err = scan.ScanWordsKnownUTF8(b, i, run, chunks)
	case chunks:
		end, err = scan.ScanChunkWords(b, i, run)
	default:
		end, err = scan.ScanStringWords(b, i, run)
	}
	if run.BadUTF8 {
		p.badUTF8 = true
	}
	p.utf8At = max(p.utf8At, end)
	return end, err
}

// scanPayloadWords scans and validates the data value at b[i] (any JSON
// value, as scanValue at depth 1 would) and fills p in the same pass;
// utf8Known skips the UTF-8 checks between its strings (the caller knows
// the line's validity).
func scanPayloadWords(b []byte, i int, p *payloadWords, utf8Known bool) (scan.Value, error) {
	*p = payloadWords{utf8Known: utf8Known}
	if i >= len(b) || b[i] != '[' {
		return scan.ScanValue(b, i, 1)
	}
	p.utf8At = i
	v := scan.Value{Kind: scan.VArray, Start: i}
	p.array = true
	i = scan.SkipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		v.End = i + 1
		return v, nil
	}
	p.nonEmpty = true
	for k := 0; ; k++ {
		var e scan.Value
		var err error
		switch k {
		case 1:
			e, err = p.scanChunks(b, i, &p.outStr, &p.out0, &p.outRest, &p.bad0, &p.badRest)
			p.outKind, p.outTruthy = e.Kind, err == nil && scan.Truthy(b, e)
		case 2:
			e, err = p.scanChunks(b, i, nil, &p.reas0, &p.reasRest, &p.badReas0, &p.badReas)
			p.reasKind, p.reasTruthy = e.Kind, err == nil && scan.Truthy(b, e)
		default:
			e, err = scan.ScanValue(b, i, 2)
		}
		if err != nil {
			return scan.Value{}, err
		}
		var closed bool
		if i, closed, err = nextElement(b, e.End); err != nil || closed {
			v.End = i
			return v, err
		}
	}
}

// nextElement reads what follows an array element ending at end: the
// closing bracket (closed, i after it) or a comma (i at the next element).
func nextElement(b []byte, end int) (i int, closed bool, err error) {
	i = scan.SkipWS(b, end)
	switch {
	case i >= len(b):
		return 0, false, scan.ErrJSON
	case b[i] == ']':
		return i + 1, true, nil
	case b[i] != ',':
		return 0, false, scan.ErrJSON
	}
	return scan.SkipWS(b, i+1), false, nil
}

// scanChunks scans an element of the payload at depth 2 that may be a
// string (counted into str, or only validated when str is nil) or a chunk
// list (its first chunk counted into first, or validated when first is
// nil, the others into rest; non-string chunks flag badFirst / badRest).
func (p *payloadWords) scanChunks(b []byte, i int, str, first, rest *scan.WordRun, badFirst, badRest *bool) (scan.Value, error) {
	if i >= len(b) {
		return scan.Value{}, scan.ErrJSON
	}
	switch b[i] {
	case '"':
		if str == nil {
			return scan.ScanValue(b, i, 2)
		}
		end, err := p.words(b, i, str, false)
		return scan.Value{Kind: scan.VString, Esc: true, Start: i, End: end}, err
	case '[':
	default:
		return scan.ScanValue(b, i, 2)
	}
	v := scan.Value{Kind: scan.VArray, Start: i}
	i = scan.SkipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		v.End = i + 1
		return v, nil
	}
	for m := 0; ; m++ {
		run, bad := rest, badRest
		if m == 0 {
			run, bad = first, badFirst
		}
		var end int
		var err error
		switch {
		case i < len(b) && b[i] == '"' && run != nil:
			// The chunks after the first are one run: the directly
			// following ones are taken in the same scan.
			end, err = p.words(b, i, run, m > 0)
		default:
			var e scan.Value
			e, err = scan.ScanValue(b, i, 3)
			end = e.End
			if e.Kind != scan.VString {
				*bad = true
			}
		}
		if err != nil {
			return scan.Value{}, err
		}
		var closed bool
		if i, closed, err = nextElement(b, end); err != nil || closed {
			v.End = i
			return v, err
		}
	}
}

// textWords combines the groups as textAfterFirstChunk joins them
// (detector spec §3.10); bad reports a non-string chunk among the joined
// ones.
func (p *payloadWords) textWords() (run scan.WordRun, bad bool) {
	if !p.nonEmpty {
		return scan.WordRun{}, false
	}
	reasChunks := p.reasTruthy && p.reasKind == scan.VArray
	if reasChunks {
		run, bad = p.reasRest, p.badReas
	}
	if !p.outTruthy {
		return run, bad
	}
	switch p.outKind {
	case scan.VString:
		if reasChunks {
			run = run.Then(p.outStr)
		}
	case scan.VArray:
		if p.reasTruthy {
			run = run.Then(p.out0).Then(p.outRest)
			bad = bad || p.bad0 || p.badRest
		} else {
			run = run.Then(p.outRest)
			bad = bad || p.badRest
		}
	}
	return run, bad
}

// firstChunkWords is the word count of the first streamed chunk, the one
// textWords leaves out: the reasoning's first chunk when the reasoning is
// a truthy chunk list, else the output's first chunk when the output is a
// chunk list; ok is false when there is no first chunk (a non-streamed
// output).
func (p *payloadWords) firstChunkWords() (words int, ok bool) {
	switch {
	case !p.nonEmpty:
		return 0, false
	case p.reasTruthy && p.reasKind == scan.VArray:
		return p.reas0.Words, !p.badReas0
	case p.outTruthy && p.outKind == scan.VArray:
		return p.out0.Words, !p.bad0
	}
	return 0, false
}

// FirstChunkText returns the first streamed chunk of a COMPLETE payload,
// the one textAfterFirstChunk leaves out (see firstChunkWords); ok is
// false when there is none or it is not a string.
func (s *PayloadScratch) FirstChunkText(line []byte, data scan.Value) (text []byte, ok bool) {
	if data.Kind != scan.VArray {
		return nil, false
	}
	s.data = scan.ArrayElems(s.data[:0], line, data)
	var output, reasoning scan.Value
	if len(s.data) > 1 {
		output = s.data[1]
	}
	if len(s.data) > 2 {
		reasoning = s.data[2]
	}
	var list []scan.Value
	switch {
	case scan.Truthy(line, reasoning) && reasoning.Kind == scan.VArray:
		s.reas = scan.ArrayElems(s.reas[:0], line, reasoning)
		list = s.reas
	case scan.Truthy(line, output) && output.Kind == scan.VArray:
		s.outs = scan.ArrayElems(s.outs[:0], line, output)
		list = s.outs
	}
	if len(list) == 0 || list[0].Kind != scan.VString {
		return nil, false
	}
	s.buf = scan.AppendUnescaped(s.buf[:0], line, list[0])
	return s.buf, true
}

// PayloadScratch holds the reusable buffers of the payload reducers.
type PayloadScratch struct {
	data, outs, reas []scan.Value
	parts            []scan.Value
	buf              []byte
	str              []byte // unescaped string for re-encoding
}

// TextAfterFirstChunk returns the output text after the first streamed
// chunk (detector spec §3.10). The result aliases line when it is a single
// unescaped string, else s.buf. badChunk reports a non-string chunk among
// the kept ones (the reference crashes; we leave it out).
func (s *PayloadScratch) TextAfterFirstChunk(line []byte, data scan.Value) (text []byte, badChunk bool) {
	if data.Kind != scan.VArray {
		return nil, false
	}
	s.data = scan.ArrayElems(s.data[:0], line, data)
	if len(s.data) == 0 {
		return nil, false
	}
	var output, reasoning scan.Value
	if len(s.data) > 1 {
		output = s.data[1]
	}
	if len(s.data) > 2 {
		reasoning = s.data[2]
	}
	s.parts = s.parts[:0]
	rTruthy := scan.Truthy(line, reasoning)
	if rTruthy && reasoning.Kind == scan.VArray {
		s.reas = scan.ArrayElems(s.reas[:0], line, reasoning)
		if len(s.reas) > 1 {
			s.parts = append(s.parts, s.reas[1:]...)
		}
	}
	if scan.Truthy(line, output) {
		switch output.Kind {
		case scan.VString:
			if len(s.parts) > 0 || rTruthy && reasoning.Kind == scan.VArray {
				s.parts = append(s.parts, output)
			}
		case scan.VArray:
			s.outs = scan.ArrayElems(s.outs[:0], line, output)
			if len(s.parts) > 0 || rTruthy {
				s.parts = append(s.parts, s.outs...)
			} else if len(s.outs) > 1 {
				s.parts = append(s.parts, s.outs[1:]...)
			}
		}
	}
	return s.join(line)
}

// join concatenates the string parts; non-strings are dropped and flagged.
func (s *PayloadScratch) join(line []byte) ([]byte, bool) {
	bad := false
	n, last := 0, -1
	for i, p := range s.parts {
		if p.Kind != scan.VString {
			bad = true
			continue
		}
		if p.End-p.Start > 2 {
			n++
			last = i
		}
	}
	if n == 0 {
		return nil, bad
	}
	if n == 1 && !s.parts[last].Esc {
		p := s.parts[last]
		return line[p.Start+1 : p.End-1], bad
	}
	s.buf = s.buf[:0]
	for _, p := range s.parts {
		if p.Kind == scan.VString {
			s.buf = scan.AppendUnescaped(s.buf, line, p)
		}
	}
	return s.buf, bad
}

// FullOutputText returns the whole generated text the agentic NATL path
// counts (detector spec §13): reasoning (all chunks or the string), then
// output, then json.dumps(tool_calls) when truthy. Non-string parts are
// rendered with Python's str() for scalars; nested containers inside a
// chunk list are rendered as JSON (an approximation of Python's repr).
func (s *PayloadScratch) FullOutputText(line []byte, data scan.Value) []byte {
	s.buf = s.buf[:0]
	if data.Kind != scan.VArray {
		return s.buf
	}
	s.data = scan.ArrayElems(s.data[:0], line, data)
	var output, reasoning, tools scan.Value
	if len(s.data) > 1 {
		output = s.data[1]
	}
	if len(s.data) > 2 {
		reasoning = s.data[2]
	}
	if len(s.data) > 3 {
		tools = s.data[3]
	}
	for _, part := range [2]scan.Value{reasoning, output} {
		if !scan.Truthy(line, part) {
			continue
		}
		if part.Kind == scan.VArray {
			s.reas = scan.ArrayElems(s.reas[:0], line, part)
			for _, e := range s.reas {
				s.buf = s.appendPyStr(s.buf, line, e)
			}
			continue
		}
		s.buf = s.appendPyStr(s.buf, line, part)
	}
	if scan.Truthy(line, tools) {
		s.buf = s.appendPyDumps(s.buf, line, tools)
	}
	return s.buf
}

// appendPyStr appends Python's str() of a JSON value.
func (s *PayloadScratch) appendPyStr(dst, line []byte, v scan.Value) []byte {
	switch v.Kind {
	case scan.VString:
		return scan.AppendUnescaped(dst, line, v)
	case scan.VTrue:
		return append(dst, "True"...)
	case scan.VFalse:
		return append(dst, "False"...)
	case scan.VNull:
		return append(dst, "None"...)
	case scan.VNumber:
		return appendPyNumber(dst, line, v)
	}
	return s.appendPyDumps(dst, line, v)
}

// appendPyNumber renders a number as Python would after json.loads.
func appendPyNumber(dst, line []byte, v scan.Value) []byte {
	n, f, isFloat, ok := scan.NumberInt(line, v)
	if !isFloat {
		if ok {
			return strconv.AppendInt(dst, n, 10)
		}
		raw := line[v.Start:v.End] // big integer: Python keeps the digits
		if string(raw) == "-0" {
			return append(dst, '0')
		}
		return append(dst, raw...)
	}
	return appendPyFloat(dst, f)
}

// appendPyFloat appends Python's repr of a float (internal/pyjson, the
// module's one formatter).
func appendPyFloat(dst []byte, f float64) []byte { return pyjson.AppendFloat(dst, f) }

// appendPyDumps appends json.dumps(value) with Python's defaults:
// separators ", " and ": ", ensure_ascii.
func (s *PayloadScratch) appendPyDumps(dst, line []byte, v scan.Value) []byte {
	switch v.Kind {
	case scan.VString:
		return s.appendPyJSONString(dst, line, v)
	case scan.VTrue:
		return append(dst, "true"...)
	case scan.VFalse:
		return append(dst, "false"...)
	case scan.VNull:
		return append(dst, "null"...)
	case scan.VNumber:
		return appendPyNumber(dst, line, v)
	case scan.VArray:
		dst = append(dst, '[')
		i := scan.SkipWS(line, v.Start+1)
		first := true
		for line[i] != ']' {
			e, err := scan.ScanValue(line, i, 1)
			if err != nil {
				break
			}
			if !first {
				dst = append(dst, ", "...)
			}
			first = false
			dst = s.appendPyDumps(dst, line, e)
			i = scan.SkipWS(line, e.End)
			if line[i] == ',' {
				i = scan.SkipWS(line, i+1)
			}
		}
		return append(dst, ']')
	case scan.VObject:
		dst = append(dst, '{')
		i := scan.SkipWS(line, v.Start+1)
		first := true
		for line[i] != '}' {
			k, err := scan.ScanValue(line, i, 1)
			if err != nil {
				break
			}
			i = scan.SkipWS(line, scan.SkipWS(line, k.End)+1)
			e, err := scan.ScanValue(line, i, 1)
			if err != nil {
				break
			}
			if !first {
				dst = append(dst, ", "...)
			}
			first = false
			dst = s.appendPyJSONString(dst, line, k)
			dst = append(dst, ": "...)
			dst = s.appendPyDumps(dst, line, e)
			i = scan.SkipWS(line, e.End)
			if line[i] == ',' {
				i = scan.SkipWS(line, i+1)
			}
		}
		return append(dst, '}')
	}
	return dst
}

// appendPyJSONString appends a string value re-encoded as json.dumps does
// with ensure_ascii (pyjson.AppendString: non-ASCII and DEL as \uXXXX,
// surrogate pairs above the BMP).
func (s *PayloadScratch) appendPyJSONString(dst, line []byte, v scan.Value) []byte {
	s.str = scan.AppendUnescaped(s.str[:0], line, v)
	return pyjson.AppendString(dst, string(s.str))
}

// NonStreamedOutput reports a TextModelOutput payload whose output is one
// non-empty string (event-log spec §1.5: a non-streamed answer, or
// SGLang's joined text) rather than streamed chunks.
func (s *PayloadScratch) NonStreamedOutput(line []byte, data scan.Value) bool {
	if data.Kind != scan.VArray {
		return false
	}
	s.data = scan.ArrayElems(s.data[:0], line, data)
	return len(s.data) > 1 && s.data[1].Kind == scan.VString && s.data[1].End-s.data[1].Start > 2
}
