package tokenizer

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
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
	identity string
	// deferred, when set, builds the fields below on first use (Load):
	// a compiled-cache hit that may only be asked its identity.
	deferred        *deferredTables
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

// deferredTables is how a Tokenizer returned by loadCachedDeferred
// builds its tables: once, through LoadCached.
type deferredTables struct {
	once           sync.Once
	done           atomic.Bool
	path, cacheDir string
	err            error
}

// Load builds the tables of a tokenizer whose loading was deferred (a
// compiled-cache hit of ResolveCached, which reads only the identity);
// for any other tokenizer it does nothing. Counting and encoding call it
// first, so it is needed only to load ahead of use (beside other work) or
// to see its error, which they would return: the tokenizer file gone or
// unreadable since it was resolved, or changed in a way the cache's key
// did not see (the identity would no longer be the file's).
func (t *Tokenizer) Load() error {
	d := t.deferred
	if d == nil {
		return nil
	}
	d.once.Do(func() {
		defer d.done.Store(true)
		full, _, err := LoadCached(d.path, d.cacheDir)
		switch {
		case err != nil:
			d.err = err
		case full.identity != t.identity:
			d.err = fmt.Errorf("tokenizer: %s is %s, not the %s it was resolved as", d.path, full.identity, t.identity)
		default:
			t.nfc, t.splits, t.model = full.nfc, full.splits, full.model
			t.addedRaw, t.addedNormalized = full.addedRaw, full.addedNormalized
			t.initPool()
		}
	})
	return d.err
}

// Loaded reports whether t counts without building its tables first
// (Load has run, or there was nothing to defer).
func (t *Tokenizer) Loaded() bool { return t.deferred == nil || t.deferred.done.Load() }

// Identity is "sha256:" and the hex SHA-256 of the uncompressed
// tokenizer.json, so caches of counts can key on the exact tokenizer.
func (t *Tokenizer) Identity() string { return t.identity }

// Count returns the number of tokens in text, or −1 if text cannot be
// tokenized in bounded time (the Split pattern is too expensive for it;
// CountContext returns the error).
func (t *Tokenizer) Count(text string) int {
	n, err := t.CountContext(context.Background(), text)
	if err != nil {
		return -1
	}
	return n
}

// CountContext returns the number of tokens in text. It fails with an
// error wrapping ErrPatternTooExpensive when a Split pattern exceeds its
// matching budget on text, and with ctx's cause once ctx is done (looked
// at every few hundred matches, so a cancelled count of even a huge text
// returns within milliseconds).
func (t *Tokenizer) CountContext(ctx context.Context, text string) (int, error) {
	select {
	case <-ctx.Done():
		return 0, context.Cause(ctx)
	default:
	}
	if err := t.Load(); err != nil {
		return 0, err
	}
	sc := t.scratch.Get().(*encodeScratch)
	sc.m.reset(ctx)
	sc.ids = t.appendEncode(sc.ids[:0], text, sc)
	n, err := len(sc.ids), sc.m.err
	sc.m.reset(nil)
	t.release(sc)
	if err != nil {
		return 0, err
	}
	return n, nil
}

// Encode returns the token ids of text (nil if it cannot be tokenized in
// bounded time; see AppendEncodeContext).
func (t *Tokenizer) Encode(text string) []uint32 {
	return t.AppendEncode(nil, text)
}

// AppendEncode appends the token ids of text to dst and returns the
// extended slice (dst unchanged if text cannot be tokenized in bounded
// time; see AppendEncodeContext).
func (t *Tokenizer) AppendEncode(dst []uint32, text string) []uint32 {
	out, err := t.AppendEncodeContext(context.Background(), dst, text)
	if err != nil {
		return dst
	}
	return out
}

// AppendEncodeContext is AppendEncode with the errors of CountContext; on
// an error dst is returned unchanged in length.
func (t *Tokenizer) AppendEncodeContext(ctx context.Context, dst []uint32, text string) ([]uint32, error) {
	select {
	case <-ctx.Done():
		return dst, context.Cause(ctx)
	default:
	}
	if err := t.Load(); err != nil {
		return dst, err
	}
	sc := t.scratch.Get().(*encodeScratch)
	sc.m.reset(ctx)
	n := len(dst)
	dst = t.appendEncode(dst, text, sc)
	err := sc.m.err
	sc.m.reset(nil)
	t.release(sc)
	if err != nil {
		return dst[:n], err
	}
	return dst, nil
}

// appendEncode appends the ids of text; it stops early once sc.m.err is
// set (the caller reports it).
func (t *Tokenizer) appendEncode(dst []uint32, text string, sc *encodeScratch) []uint32 {
	return t.appendAround(t.addedRaw, dst, text, sc, (*Tokenizer).appendSegment)
}

// appendAround appends the ids of text: the added tokens m finds as
// their ids, the text between them encoded by between. It stops early
// once sc.m.err is set. between is a method expression, so the call
// allocates nothing.
func (t *Tokenizer) appendAround(m *addedMatcher, dst []uint32, text string, sc *encodeScratch,
	between func(*Tokenizer, []uint32, string, *encodeScratch) []uint32) []uint32 {
	if m.empty() {
		return between(t, dst, text, sc)
	}
	pos, prevEnd := 0, 0
	for sc.m.err == nil {
		start, end, id, ok := m.next(text, pos, prevEnd)
		if !ok {
			break
		}
		if start > prevEnd {
			dst = between(t, dst, text[prevEnd:start], sc)
		}
		dst = append(dst, id)
		pos, prevEnd = end, end
	}
	if prevEnd < len(text) && sc.m.err == nil {
		dst = between(t, dst, text[prevEnd:], sc)
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
	return t.appendAround(t.addedNormalized, dst, seg, sc, (*Tokenizer).appendPieces)
}

func (t *Tokenizer) appendPieces(dst []uint32, s string, sc *encodeScratch) []uint32 {
	sc.pieces = sc.m.preTokenize(t.splits, s, sc.pieces[:0])
	if sc.m.err != nil {
		return dst
	}
	// The BPE merge of a piece is bounded by its length; between chunks of
	// pieces is where a cancelled count stops.
	for pieces := sc.pieces; len(pieces) > 0; {
		n := min(len(pieces), pollEvery)
		for _, piece := range pieces[:n] {
			dst = t.model.appendPiece(dst, piece, &sc.bpe)
		}
		if pieces = pieces[n:]; len(pieces) > 0 && sc.m.poll() {
			return dst
		}
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
