package columnar

import (
	"strconv"

	"github.com/steadysweep/steadysweep/sinks/pyjson"
)

// This file reduces a sample.complete payload ["TextModelOutput", output,
// reasoning, tool_calls] to the text the token counter needs.

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

// appendPyFloat appends Python's repr of a float (sinks/pyjson, the
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
