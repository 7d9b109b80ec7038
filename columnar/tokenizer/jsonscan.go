package tokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/steadysweep/steadysweep/columnar/scan"
)

// jsonScanner reads the two big members of a BPE model, vocab and merges,
// without encoding/json's reflection: they hold hundreds of thousands of
// short strings, and decoding them generically was most of the load time.
// Strings without escapes are returned as sub-slices of the input; the
// rare escaped ones go through encoding/json so that \uXXXX (surrogate
// pairs included) is decoded exactly.
type jsonScanner struct {
	data []byte
	pos  int
}

var errJSONSyntax = errors.New("malformed JSON")

func (s *jsonScanner) fail(what string) error {
	return fmt.Errorf("%w at byte %d: want %s", errJSONSyntax, s.pos, what)
}

func (s *jsonScanner) skipSpace() { s.pos = scan.SkipWS(s.data, s.pos) }

// peek returns the next non-space byte, or 0 at the end.
func (s *jsonScanner) peek() byte {
	s.skipSpace()
	if s.pos >= len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

func (s *jsonScanner) expect(c byte) error {
	if s.peek() != c {
		return s.fail(fmt.Sprintf("%q", c))
	}
	s.pos++
	return nil
}

// str reads a JSON string and returns its decoded bytes.
func (s *jsonScanner) str() ([]byte, error) {
	if s.peek() != '"' {
		return nil, s.fail("a string")
	}
	start := s.pos + 1
	i := bytes.IndexAny(s.data[start:], "\"\\")
	if i < 0 {
		return nil, s.fail("a closing quote")
	}
	if s.data[start+i] == '"' {
		s.pos = start + i + 1
		return s.data[start : start+i], nil
	}
	// Escaped: find the closing quote, skipping escaped characters.
	j := start + i
	for j < len(s.data) && s.data[j] != '"' {
		if s.data[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(s.data) {
		return nil, s.fail("a closing quote")
	}
	var decoded string
	if err := json.Unmarshal(s.data[s.pos:j+1], &decoded); err != nil {
		return nil, fmt.Errorf("string at byte %d: %w", s.pos, err)
	}
	s.pos = j + 1
	return []byte(decoded), nil
}

// uint32 reads a non-negative integer that fits in 32 bits.
func (s *jsonScanner) uint32() (uint32, error) {
	s.skipSpace()
	start := s.pos
	var v uint64
	for s.pos < len(s.data) && '0' <= s.data[s.pos] && s.data[s.pos] <= '9' {
		v = v*10 + uint64(s.data[s.pos]-'0')
		if v > 1<<32-1 {
			return 0, s.fail("an id below 2^32")
		}
		s.pos++
	}
	if s.pos == start {
		return 0, s.fail("a non-negative integer id")
	}
	return uint32(v), nil
}

// scanVocab decodes a BPE vocab object {"token": id, ...}. As with HF's
// serde map, a repeated token keeps its last id.
func scanVocab(raw []byte) (map[string]uint32, error) {
	s := &jsonScanner{data: raw}
	vocab := make(map[string]uint32, bytes.Count(raw, []byte(`":`)))
	if err := s.expect('{'); err != nil {
		return nil, err
	}
	if s.peek() == '}' {
		return vocab, nil
	}
	for {
		key, err := s.str()
		if err != nil {
			return nil, err
		}
		if err := s.expect(':'); err != nil {
			return nil, err
		}
		id, err := s.uint32()
		if err != nil {
			return nil, err
		}
		vocab[string(key)] = id
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			return vocab, nil
		default:
			return nil, s.fail(`"," or "}"`)
		}
	}
}

// scanMerges calls fn with the two parts of each merge, in rank order.
// Merges come as "a b" strings (older files) or ["a", "b"] pairs; the
// parts are only valid during the call.
func scanMerges(raw []byte, fn func(rank int, a, b []byte) error) error {
	s := &jsonScanner{data: raw}
	if s.peek() == 'n' && bytes.HasPrefix(s.data[s.pos:], []byte("null")) {
		return nil
	}
	if err := s.expect('['); err != nil {
		return err
	}
	if s.peek() == ']' {
		return nil
	}
	for rank := 0; ; rank++ {
		var a, b []byte
		var err error
		if s.peek() == '[' {
			s.pos++
			if a, err = s.str(); err != nil {
				return err
			}
			if err := s.expect(','); err != nil {
				return err
			}
			if b, err = s.str(); err != nil {
				return err
			}
			if err := s.expect(']'); err != nil {
				return err
			}
		} else {
			line, err := s.str()
			if err != nil {
				return err
			}
			var ok bool
			a, b, ok = bytes.Cut(line, []byte(" "))
			if !ok || bytes.IndexByte(b, ' ') >= 0 {
				return fmt.Errorf("merge %d %q: want two space-separated parts", rank, line)
			}
		}
		if err := fn(rank, a, b); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			return nil
		default:
			return s.fail(`"," or "]"`)
		}
	}
}

// skipValue moves past one JSON value of any kind. It checks structure
// only as far as needed to find the value's end; the values this package
// uses are decoded, and so validated, separately.
func (s *jsonScanner) skipValue() error {
	switch s.peek() {
	case 0:
		return s.fail("a value")
	case '"':
		_, err := s.skipString()
		return err
	case '{', '[':
		depth := 0
		for s.pos < len(s.data) {
			switch c := s.data[s.pos]; c {
			case '"':
				if _, err := s.skipString(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					s.pos++
					return nil
				}
			}
			s.pos++
		}
		return s.fail("a closing bracket")
	}
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return nil
		}
		s.pos++
	}
	return nil
}

// skipString moves past a JSON string and returns its raw bytes, quotes
// included.
func (s *jsonScanner) skipString() ([]byte, error) {
	start := s.pos
	for i := s.pos + 1; i < len(s.data); i++ {
		switch s.data[i] {
		case '\\':
			i++
		case '"':
			s.pos = i + 1
			return s.data[start:s.pos], nil
		}
	}
	return nil, s.fail("a closing quote")
}

// objectFields calls fn with each key of the JSON object at the scanner's
// position and the raw bytes of its value.
func (s *jsonScanner) objectFields(fn func(key string, raw []byte) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.pos++
		return nil
	}
	for {
		key, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		s.skipSpace()
		start := s.pos
		if err := s.skipValue(); err != nil {
			return err
		}
		if err := fn(string(key), s.data[start:s.pos]); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return nil
		default:
			return s.fail(`"," or "}"`)
		}
	}
}

// decodeTokenizerFile fills a tokenizerFile from tokenizer.json. The
// vocabulary and merges, nearly all of the bytes, are only located here
// and left to scanVocab and scanMerges; encoding/json would validate and
// skip them first, which took about a third of the load time.
func decodeTokenizerFile(data []byte) (*tokenizerFile, error) {
	var f tokenizerFile
	m := &f.Model
	modelFields := map[string]any{
		"type": &m.Type, "dropout": &m.Dropout, "unk_token": &m.UnkToken,
		"continuing_subword_prefix": &m.ContinuingSubwordPrefix, "end_of_word_suffix": &m.EndOfWordSuffix,
		"byte_fallback": &m.ByteFallback, "ignore_merges": &m.IgnoreMerges,
	}
	s := &jsonScanner{data: data}
	err := s.objectFields(func(key string, raw []byte) error {
		switch key {
		case "truncation":
			f.Truncation = raw
		case "padding":
			f.Padding = raw
		case "normalizer":
			f.Normalizer = raw
		case "pre_tokenizer":
			f.PreTokenizer = raw
		case "post_processor":
			f.PostProcessor = raw
		case "added_tokens":
			if err := json.Unmarshal(raw, &f.AddedTokens); err != nil {
				return fmt.Errorf("added_tokens: %w", err)
			}
		case "model":
			ms := &jsonScanner{data: raw}
			return ms.objectFields(func(key string, raw []byte) error {
				switch key {
				case "vocab":
					m.Vocab = raw
				case "merges":
					m.Merges = raw
				default:
					if field, ok := modelFields[key]; ok {
						if err := json.Unmarshal(raw, field); err != nil {
							return fmt.Errorf("model.%s: %w", key, err)
						}
					}
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if s.peek() != 0 {
		return nil, s.fail("the end of the document")
	}
	return &f, nil
}
