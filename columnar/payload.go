package columnar

import (
	"strconv"
	"unicode/utf8"

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
	outKind, reasKind     vkind
	outTruthy, reasTruthy bool
	outStr                wordRun // output as one string
	out0, outRest         wordRun // output as a chunk list: the first chunk, the others
	reasRest              wordRun // reasoning chunks after the first
	reas0                 wordRun // the reasoning's first chunk
	badReas0              bool    // reas0 is not a string
	bad0, badRest         bool    // a non-string among out0 / outRest
	badReas               bool    // a non-string among reasRest

	// utf8At and badUTF8 check the line's UTF-8 as it is scanned: bytes
	// before utf8At are checked (the strings counted here by the word
	// loop, the bytes between them by utf8.Valid).
	utf8At  int
	badUTF8 bool
}

// words scans the string at b[i] into run, checking the line's UTF-8 up
// to its end.
func (p *payloadWords) words(b []byte, i int, run *wordRun) (int, error) {
	if !p.badUTF8 && !utf8.Valid(b[p.utf8At:i]) {
		p.badUTF8 = true
	}
	end, err := scanStringWords(b, i, run)
	if run.badUTF8 {
		p.badUTF8 = true
	}
	p.utf8At = max(p.utf8At, end)
	return end, err
}

// scanPayloadWords scans and validates the data value at b[i] (any JSON
// value, as scanValue at depth 1 would) and fills p in the same pass.
func scanPayloadWords(b []byte, i int, p *payloadWords) (value, error) {
	*p = payloadWords{}
	if i >= len(b) || b[i] != '[' {
		return scanValue(b, i, 1)
	}
	p.utf8At = i
	v := value{kind: vArray, start: i}
	p.array = true
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		v.end = i + 1
		return v, nil
	}
	p.nonEmpty = true
	for k := 0; ; k++ {
		var e value
		var err error
		switch k {
		case 1:
			e, err = p.scanChunks(b, i, &p.outStr, &p.out0, &p.outRest, &p.bad0, &p.badRest)
			p.outKind, p.outTruthy = e.kind, err == nil && truthy(b, e)
		case 2:
			e, err = p.scanChunks(b, i, nil, &p.reas0, &p.reasRest, &p.badReas0, &p.badReas)
			p.reasKind, p.reasTruthy = e.kind, err == nil && truthy(b, e)
		default:
			e, err = scanValue(b, i, 2)
		}
		if err != nil {
			return value{}, err
		}
		var closed bool
		if i, closed, err = nextElement(b, e.end); err != nil || closed {
			v.end = i
			return v, err
		}
	}
}

// nextElement reads what follows an array element ending at end: the
// closing bracket (closed, i after it) or a comma (i at the next element).
func nextElement(b []byte, end int) (i int, closed bool, err error) {
	i = skipWS(b, end)
	switch {
	case i >= len(b):
		return 0, false, errJSON
	case b[i] == ']':
		return i + 1, true, nil
	case b[i] != ',':
		return 0, false, errJSON
	}
	return skipWS(b, i+1), false, nil
}

// scanChunks scans an element of the payload at depth 2 that may be a
// string (counted into str, or only validated when str is nil) or a chunk
// list (its first chunk counted into first, or validated when first is
// nil, the others into rest; non-string chunks flag badFirst / badRest).
func (p *payloadWords) scanChunks(b []byte, i int, str, first, rest *wordRun, badFirst, badRest *bool) (value, error) {
	if i >= len(b) {
		return value{}, errJSON
	}
	switch b[i] {
	case '"':
		if str == nil {
			return scanValue(b, i, 2)
		}
		end, err := p.words(b, i, str)
		return value{kind: vString, esc: true, start: i, end: end}, err
	case '[':
	default:
		return scanValue(b, i, 2)
	}
	v := value{kind: vArray, start: i}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		v.end = i + 1
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
			end, err = p.words(b, i, run)
		default:
			var e value
			e, err = scanValue(b, i, 3)
			end = e.end
			if e.kind != vString {
				*bad = true
			}
		}
		if err != nil {
			return value{}, err
		}
		var closed bool
		if i, closed, err = nextElement(b, end); err != nil || closed {
			v.end = i
			return v, err
		}
	}
}

// textWords combines the groups as textAfterFirstChunk joins them
// (detector spec §3.10); bad reports a non-string chunk among the joined
// ones.
func (p *payloadWords) textWords() (run wordRun, bad bool) {
	if !p.nonEmpty {
		return wordRun{}, false
	}
	reasChunks := p.reasTruthy && p.reasKind == vArray
	if reasChunks {
		run, bad = p.reasRest, p.badReas
	}
	if !p.outTruthy {
		return run, bad
	}
	switch p.outKind {
	case vString:
		if reasChunks {
			run = run.then(p.outStr)
		}
	case vArray:
		if p.reasTruthy {
			run = run.then(p.out0).then(p.outRest)
			bad = bad || p.bad0 || p.badRest
		} else {
			run = run.then(p.outRest)
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
	case p.reasTruthy && p.reasKind == vArray:
		return p.reas0.words, !p.badReas0
	case p.outTruthy && p.outKind == vArray:
		return p.out0.words, !p.bad0
	}
	return 0, false
}

// firstChunkText returns the first streamed chunk of a COMPLETE payload,
// the one textAfterFirstChunk leaves out (see firstChunkWords); ok is
// false when there is none or it is not a string.
func (s *payloadScratch) firstChunkText(line []byte, data value) (text []byte, ok bool) {
	if data.kind != vArray {
		return nil, false
	}
	s.data = arrayElems(s.data[:0], line, data)
	var output, reasoning value
	if len(s.data) > 1 {
		output = s.data[1]
	}
	if len(s.data) > 2 {
		reasoning = s.data[2]
	}
	var list []value
	switch {
	case truthy(line, reasoning) && reasoning.kind == vArray:
		s.reas = arrayElems(s.reas[:0], line, reasoning)
		list = s.reas
	case truthy(line, output) && output.kind == vArray:
		s.outs = arrayElems(s.outs[:0], line, output)
		list = s.outs
	}
	if len(list) == 0 || list[0].kind != vString {
		return nil, false
	}
	s.buf = appendUnescaped(s.buf[:0], line, list[0])
	return s.buf, true
}

// payloadScratch holds the reusable buffers of the payload reducers.
type payloadScratch struct {
	data, outs, reas []value
	parts            []value
	buf              []byte
	str              []byte // unescaped string for re-encoding
}

// textAfterFirstChunk returns the output text after the first streamed
// chunk (detector spec §3.10). The result aliases line when it is a single
// unescaped string, else s.buf. badChunk reports a non-string chunk among
// the kept ones (the reference crashes; we leave it out).
func (s *payloadScratch) textAfterFirstChunk(line []byte, data value) (text []byte, badChunk bool) {
	if data.kind != vArray {
		return nil, false
	}
	s.data = arrayElems(s.data[:0], line, data)
	if len(s.data) == 0 {
		return nil, false
	}
	var output, reasoning value
	if len(s.data) > 1 {
		output = s.data[1]
	}
	if len(s.data) > 2 {
		reasoning = s.data[2]
	}
	s.parts = s.parts[:0]
	rTruthy := truthy(line, reasoning)
	if rTruthy && reasoning.kind == vArray {
		s.reas = arrayElems(s.reas[:0], line, reasoning)
		if len(s.reas) > 1 {
			s.parts = append(s.parts, s.reas[1:]...)
		}
	}
	if truthy(line, output) {
		switch output.kind {
		case vString:
			if len(s.parts) > 0 || rTruthy && reasoning.kind == vArray {
				s.parts = append(s.parts, output)
			}
		case vArray:
			s.outs = arrayElems(s.outs[:0], line, output)
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
func (s *payloadScratch) join(line []byte) ([]byte, bool) {
	bad := false
	n, last := 0, -1
	for i, p := range s.parts {
		if p.kind != vString {
			bad = true
			continue
		}
		if p.end-p.start > 2 {
			n++
			last = i
		}
	}
	if n == 0 {
		return nil, bad
	}
	if n == 1 && !s.parts[last].esc {
		p := s.parts[last]
		return line[p.start+1 : p.end-1], bad
	}
	s.buf = s.buf[:0]
	for _, p := range s.parts {
		if p.kind == vString {
			s.buf = appendUnescaped(s.buf, line, p)
		}
	}
	return s.buf, bad
}

// fullOutputText returns the whole generated text the agentic NATL path
// counts (detector spec §13): reasoning (all chunks or the string), then
// output, then json.dumps(tool_calls) when truthy. Non-string parts are
// rendered with Python's str() for scalars; nested containers inside a
// chunk list are rendered as JSON (an approximation of Python's repr).
func (s *payloadScratch) fullOutputText(line []byte, data value) []byte {
	s.buf = s.buf[:0]
	if data.kind != vArray {
		return s.buf
	}
	s.data = arrayElems(s.data[:0], line, data)
	var output, reasoning, tools value
	if len(s.data) > 1 {
		output = s.data[1]
	}
	if len(s.data) > 2 {
		reasoning = s.data[2]
	}
	if len(s.data) > 3 {
		tools = s.data[3]
	}
	for _, part := range [2]value{reasoning, output} {
		if !truthy(line, part) {
			continue
		}
		if part.kind == vArray {
			s.reas = arrayElems(s.reas[:0], line, part)
			for _, e := range s.reas {
				s.buf = s.appendPyStr(s.buf, line, e)
			}
			continue
		}
		s.buf = s.appendPyStr(s.buf, line, part)
	}
	if truthy(line, tools) {
		s.buf = s.appendPyDumps(s.buf, line, tools)
	}
	return s.buf
}

// appendPyStr appends Python's str() of a JSON value.
func (s *payloadScratch) appendPyStr(dst, line []byte, v value) []byte {
	switch v.kind {
	case vString:
		return appendUnescaped(dst, line, v)
	case vTrue:
		return append(dst, "True"...)
	case vFalse:
		return append(dst, "False"...)
	case vNull:
		return append(dst, "None"...)
	case vNumber:
		return appendPyNumber(dst, line, v)
	}
	return s.appendPyDumps(dst, line, v)
}

// appendPyNumber renders a number as Python would after json.loads.
func appendPyNumber(dst, line []byte, v value) []byte {
	n, f, isFloat, ok := numberInt(line, v)
	if !isFloat {
		if ok {
			return strconv.AppendInt(dst, n, 10)
		}
		raw := line[v.start:v.end] // big integer: Python keeps the digits
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
func (s *payloadScratch) appendPyDumps(dst, line []byte, v value) []byte {
	switch v.kind {
	case vString:
		return s.appendPyJSONString(dst, line, v)
	case vTrue:
		return append(dst, "true"...)
	case vFalse:
		return append(dst, "false"...)
	case vNull:
		return append(dst, "null"...)
	case vNumber:
		return appendPyNumber(dst, line, v)
	case vArray:
		dst = append(dst, '[')
		i := skipWS(line, v.start+1)
		first := true
		for line[i] != ']' {
			e, err := scanValue(line, i, 1)
			if err != nil {
				break
			}
			if !first {
				dst = append(dst, ", "...)
			}
			first = false
			dst = s.appendPyDumps(dst, line, e)
			i = skipWS(line, e.end)
			if line[i] == ',' {
				i = skipWS(line, i+1)
			}
		}
		return append(dst, ']')
	case vObject:
		dst = append(dst, '{')
		i := skipWS(line, v.start+1)
		first := true
		for line[i] != '}' {
			k, err := scanValue(line, i, 1)
			if err != nil {
				break
			}
			i = skipWS(line, skipWS(line, k.end)+1)
			e, err := scanValue(line, i, 1)
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
			i = skipWS(line, e.end)
			if line[i] == ',' {
				i = skipWS(line, i+1)
			}
		}
		return append(dst, '}')
	}
	return dst
}

// appendPyJSONString appends a string value re-encoded as json.dumps does
// with ensure_ascii (pyjson.AppendString: non-ASCII and DEL as \uXXXX,
// surrogate pairs above the BMP).
func (s *payloadScratch) appendPyJSONString(dst, line []byte, v value) []byte {
	s.str = appendUnescaped(s.str[:0], line, v)
	return pyjson.AppendString(dst, string(s.str))
}

// nonStreamedOutput reports a TextModelOutput payload whose output is one
// non-empty string (event-log spec §1.5: a non-streamed answer, or
// SGLang's joined text) rather than streamed chunks.
func (s *payloadScratch) nonStreamedOutput(line []byte, data value) bool {
	if data.kind != vArray {
		return false
	}
	s.data = arrayElems(s.data[:0], line, data)
	return len(s.data) > 1 && s.data[1].kind == vString && s.data[1].end-s.data[1].start > 2
}
