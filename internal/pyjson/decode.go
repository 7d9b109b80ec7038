package pyjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// MaxDepth is the deepest nesting of objects and arrays Parse accepts.
// Re-encoding indents each level, so output grows with depth × values:
// 120 KB of nested arrays came out as 800 MB (3.6 GB of memory) before
// this limit; at 100 levels the same input is refused, and any accepted
// document re-encodes within ~200 bytes of indentation per value. Result
// summaries nest 4 levels.
const MaxDepth = 100

// Parse parses one JSON document keeping object key order (objects as
// Object, arrays as []any) and numbers as written (json.Number), so it can
// be compared or re-encoded exactly. A document nested deeper than
// MaxDepth is an error naming the byte offset.
func Parse(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

// decodeValue reads one JSON value inside depth containers (see Parse).
func decodeValue(dec *json.Decoder, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') && depth == MaxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels (at byte %d)", MaxDepth, dec.InputOffset())
	}
	switch tok {
	case json.Delim('{'):
		o := Object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			o = append(o, Field{k.(string), v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return tok, nil
}
