package tokenizer

import (
	"sync"
	"unsafe"
)

// Tokenizer counts and encodes text exactly as Hugging Face tokenizers does
// with add_special_tokens=false for the byte-level BPE tokenizers it
// supports. It is safe for concurrent use.
//
// Encoding follows tokenizers 0.22:
//
//  1. added tokens with normalized=false are cut out of the raw text first,
//     special ones included;
//  2. each remaining segment is normalized on its own (NFC or nothing) and
//     searched for added tokens with normalized=true;
//  3. the rest is split by the pre-tokenizer's regexes into pieces;
//  4. each piece is BPE-merged over its bytes.
type Tokenizer struct {
	identity        string
	nfc             bool
	splits          []*pattern
	addedRaw        *addedMatcher
	addedNormalized *addedMatcher
	model           *bpeModel
	scratch         sync.Pool // *encodeScratch
}

var _ Counter = (*Tokenizer)(nil)

// encodeScratch is one goroutine's working memory; pooling it keeps
// encoding allocation-free in steady state.
type encodeScratch struct {
	m          matcher
	bpe        bpeScratch
	pieces     []string
	normalized []byte
	runes      []rune
	ids        []uint32
}

func (t *Tokenizer) initPool() {
	t.scratch.New = func() any { return new(encodeScratch) }
}

// maxPooledPieces bounds the piece buffer kept in the pool, so that one
// huge text does not pin hundreds of megabytes of scratch.
const maxPooledPieces = 1 << 16

func (t *Tokenizer) release(sc *encodeScratch) {
	if cap(sc.pieces) > maxPooledPieces || cap(sc.ids) > maxPooledPieces || cap(sc.bpe.syms) > maxPooledPieces {
		return
	}
	t.scratch.Put(sc)
}

// Identity is "sha256:" and the hex SHA-256 of the uncompressed
// tokenizer.json, so caches of counts can key on the exact tokenizer.
func (t *Tokenizer) Identity() string { return t.identity }

// Count returns the number of tokens in text.
func (t *Tokenizer) Count(text string) int {
	sc := t.scratch.Get().(*encodeScratch)
	sc.ids = t.appendEncode(sc.ids[:0], text, sc)
	n := len(sc.ids)
	t.release(sc)
	return n
}

// Encode returns the token ids of text.
func (t *Tokenizer) Encode(text string) []uint32 {
	return t.AppendEncode(nil, text)
}

// AppendEncode appends the token ids of text to dst and returns the
// extended slice.
func (t *Tokenizer) AppendEncode(dst []uint32, text string) []uint32 {
	sc := t.scratch.Get().(*encodeScratch)
	dst = t.appendEncode(dst, text, sc)
	t.release(sc)
	return dst
}

func (t *Tokenizer) appendEncode(dst []uint32, text string, sc *encodeScratch) []uint32 {
	if t.addedRaw.empty() {
		return t.appendSegment(dst, text, sc)
	}
	pos, prevEnd := 0, 0
	for {
		start, end, id, ok := t.addedRaw.next(text, pos, prevEnd)
		if !ok {
			break
		}
		if start > prevEnd {
			dst = t.appendSegment(dst, text[prevEnd:start], sc)
		}
		dst = append(dst, id)
		pos, prevEnd = end, end
	}
	if prevEnd < len(text) {
		dst = t.appendSegment(dst, text[prevEnd:], sc)
	}
	return dst
}

// appendSegment encodes text between raw added tokens.
func (t *Tokenizer) appendSegment(dst []uint32, seg string, sc *encodeScratch) []uint32 {
	if t.nfc && needsNFC(seg) {
		sc.normalized, sc.runes = appendNFCScratch(sc.normalized[:0], seg, sc.runes)
		// The buffer is not written again until the next segment, and every
		// piece of this one is encoded (and the cache copies its keys)
		// before then, so viewing it as a string without a copy is safe.
		seg = unsafe.String(unsafe.SliceData(sc.normalized), len(sc.normalized))
	}
	if t.addedNormalized.empty() {
		return t.appendPieces(dst, seg, sc)
	}
	pos, prevEnd := 0, 0
	for {
		start, end, id, ok := t.addedNormalized.next(seg, pos, prevEnd)
		if !ok {
			break
		}
		if start > prevEnd {
			dst = t.appendPieces(dst, seg[prevEnd:start], sc)
		}
		dst = append(dst, id)
		pos, prevEnd = end, end
	}
	if prevEnd < len(seg) {
		dst = t.appendPieces(dst, seg[prevEnd:], sc)
	}
	return dst
}

func (t *Tokenizer) appendPieces(dst []uint32, s string, sc *encodeScratch) []uint32 {
	sc.pieces = sc.m.preTokenize(t.splits, s, sc.pieces[:0])
	for _, piece := range sc.pieces {
		dst = t.model.appendPiece(dst, piece, &sc.bpe)
	}
	return dst
}

// needsNFC reports whether NFC could change s: whether it holds a code
// point that is not NFC-stable on its own or that could compose with or
// reorder around its neighbours. Bytes that are not UTF-8 are left as they
// are by appendNFC, so they do not count.
func needsNFC(s string) bool {
	props := unicodeProperties()
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			for _, r := range s[i:] {
				if props.of(r)&propNFCUnsafe != 0 {
					return true
				}
			}
			return false
		}
	}
	return false
}
