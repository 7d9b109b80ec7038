package tokenizer

import (
	"bytes"
	"errors"
	"fmt"
	"math"
)

// buildBPE checks a tokenizer.json model and builds the byte-level BPE from
// its vocabulary and merges.
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
	vocab, err := scanVocab(f.Vocab)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: vocab: %w", err)
	}
	b := &bpeModel{ignoreMerges: f.IgnoreMerges, cache: newBPECache()}
	byteRunes, _ := byteLevelTables()
	for c := 0; c < 256; c++ {
		for kind := 0; kind < 4; kind++ {
			s := string(byteRunes[c])
			if kind&symbolFirst == 0 {
				s = prefix + s
			}
			if kind&symbolLast != 0 {
				s += suffix
			}
			id, ok := vocab[s]
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
		var keys []byte
		var lens, ids []uint32
		for s, id := range vocab {
			if raw, ok := unmapByteLevel(s); ok {
				keys = append(keys, raw...)
				lens, ids = append(lens, uint32(len(raw))), append(ids, id)
			}
		}
		b.vocab = newVocabTable(string(keys), lens, ids)
	}
	b.merges = newMergeTable(bytes.Count(f.Merges, []byte(`",`)) + 1)
	var merged []byte
	err = scanMerges(f.Merges, func(rank int, p0, p1 []byte) error {
		left, okL := vocab[string(p0)]
		right, okR := vocab[string(p1)]
		if !okL || !okR {
			return fmt.Errorf("tokenizer: merge %d (%q %q): part not in vocabulary", rank, p0, p1)
		}
		if !bytes.HasPrefix(p1, []byte(prefix)) {
			return fmt.Errorf("tokenizer: merge %d (%q %q): second part lacks continuing_subword_prefix", rank, p0, p1)
		}
		merged = append(append(merged[:0], p0...), p1[len(prefix):]...)
		id, ok := vocab[string(merged)]
		if !ok {
			return fmt.Errorf("tokenizer: merge %d (%q %q): result not in vocabulary", rank, p0, p1)
		}
		if left == math.MaxUint32 && right == math.MaxUint32 {
			return fmt.Errorf("tokenizer: unsupported: merge %d of two ids 4294967295", rank)
		}
		// A repeated pair keeps its last rank, as HF's HashMap collect does.
		b.merges.set(uint64(left)<<32|uint64(right), uint64(rank)<<32|uint64(id))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tokenizer: merges: %w", err)
	}
	return b, nil
}
