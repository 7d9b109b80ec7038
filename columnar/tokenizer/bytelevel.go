package tokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"
)

// byteRunes is GPT-2's bytes_to_unicode table, which HF's ByteLevel uses:
// printable Latin-1 bytes stand for themselves and the other 68 bytes are
// mapped, in order, to U+0100 onwards.
var byteRunes, runeBytes = func() (b2r [256]rune, r2b map[rune]byte) {
	r2b = make(map[rune]byte, 256)
	n := rune(0)
	for b := 0; b < 256; b++ {
		printable := '!' <= b && b <= '~' || 0xA1 <= b && b <= 0xAC || 0xAE <= b && b <= 0xFF
		if printable {
			b2r[b] = rune(b)
		} else {
			b2r[b] = 256 + n
			n++
		}
		r2b[b2r[b]] = byte(b)
	}
	return b2r, r2b
}()

// unmapByteLevel turns a byte-mapped vocabulary string back into the bytes
// it stands for; ok is false if it holds a character outside the table.
func unmapByteLevel(s string) (raw string, ok bool) {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		c, ok := runeBytes[r]
		if !ok {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

func buildBPE(f *bpeFile) (*bpeModel, error) {
	if f.Type != "BPE" {
		return nil, fmt.Errorf("tokenizer: unsupported: model %q", f.Type)
	}
	if f.Dropout != nil && *f.Dropout != 0 {
		return nil, errors.New("tokenizer: unsupported: BPE dropout (random segmentation)")
	}
	prefix, suffix := "", ""
	if f.ContinuingSubwordPrefix != nil {
		prefix = *f.ContinuingSubwordPrefix
	}
	if f.EndOfWordSuffix != nil {
		suffix = *f.EndOfWordSuffix
	}
	b := &bpeModel{ignoreMerges: f.IgnoreMerges, cache: newBPECache()}
	for c := 0; c < 256; c++ {
		for kind := 0; kind < 4; kind++ {
			s := string(byteRunes[c])
			if kind&symbolFirst == 0 {
				s = prefix + s
			}
			if kind&symbolLast != 0 {
				s += suffix
			}
			id, ok := f.Vocab[s]
			if !ok {
				// With every byte symbol present, byte_fallback and
				// unk_token can never apply; without, HF would emit
				// <0xXX> or unk ids, which this package does not do.
				return nil, fmt.Errorf("tokenizer: unsupported: BPE vocabulary lacks byte symbol %q (byte_fallback/unk_token paths)", s)
			}
			b.symbols[kind][c] = id
		}
	}
	if b.ignoreMerges {
		b.vocab = make(map[string]uint32, len(f.Vocab))
		for s, id := range f.Vocab {
			if raw, ok := unmapByteLevel(s); ok {
				b.vocab[raw] = id
			}
		}
	}
	pairs, err := decodeMerges(f.Merges)
	if err != nil {
		return nil, err
	}
	b.merges = newMergeTable(len(pairs))
	for rank, p := range pairs {
		left, okL := f.Vocab[p[0]]
		right, okR := f.Vocab[p[1]]
		if !okL || !okR {
			return nil, fmt.Errorf("tokenizer: merge %d (%q %q): part not in vocabulary", rank, p[0], p[1])
		}
		if !strings.HasPrefix(p[1], prefix) {
			return nil, fmt.Errorf("tokenizer: merge %d (%q %q): second part lacks continuing_subword_prefix", rank, p[0], p[1])
		}
		merged, ok := f.Vocab[p[0]+p[1][len(prefix):]]
		if !ok {
			return nil, fmt.Errorf("tokenizer: merge %d (%q %q): result not in vocabulary", rank, p[0], p[1])
		}
		if left == math.MaxUint32 && right == math.MaxUint32 {
			return nil, fmt.Errorf("tokenizer: unsupported: merge %d of two ids 4294967295", rank)
		}
		// A repeated pair keeps its last rank, as HF's HashMap collect does.
		b.merges.set(uint64(left)<<32|uint64(right), uint64(rank)<<32|uint64(merged))
	}
	return b, nil
}

// decodeMerges reads merges in either of HF's formats: "a b" strings
// (older files) or ["a", "b"] pairs.
func decodeMerges(raw json.RawMessage) ([][2]string, error) {
	var pairs [][2]string
	inner := bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("[")), " \t\r\n")
	if len(inner) > 0 && inner[0] == '[' {
		if err := json.Unmarshal(raw, &pairs); err != nil {
			return nil, fmt.Errorf("tokenizer: decode merges: %w", err)
		}
		return pairs, nil
	}
	var lines []string
	if err := json.Unmarshal(raw, &lines); err != nil {
		return nil, fmt.Errorf("tokenizer: decode merges: %w", err)
	}
	pairs = make([][2]string, len(lines))
	for i, line := range lines {
		a, b, ok := strings.Cut(line, " ")
		if !ok || strings.Contains(b, " ") || !utf8.ValidString(line) {
			return nil, fmt.Errorf("tokenizer: merge %d %q: want two space-separated parts", i, line)
		}
		pairs[i] = [2]string{a, b}
	}
	return pairs, nil
}
