package scan

import (
	"context"
	"encoding/binary"
	"math/bits"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// TokenCounter counts the tokens of an output text. Count must not retain
// text (it may alias a reused buffer) and, when DecodeOptions.Workers >
// 1, must be safe for concurrent use. Identity names the counter for
// cache keys, e.g. "words" or a tokenizer id with its revision.
type TokenCounter interface {
	Count(text string) int
	Identity() string
}

// WhitespaceWordCounter is a TokenCounter whose Count is exactly Python's
// len(text.split()): the number of maximal runs of characters that are
// not str.isspace, bytes that are not UTF-8 counting as non-space. The
// decoder counts such a counter's words on the escaped JSON bytes of the
// output in the same pass that validates the line, without building the
// text (the method is a marker; Count is still used where the text exists).
type WhitespaceWordCounter interface {
	TokenCounter
	CountsWhitespaceWords()
}

// PendingCounter is a TokenCounter still being built (a tokenizer loading
// beside the decode): until Ready, the decoder leaves the counts of the
// blocks it decodes undone, and Load counts those samples in a second pass
// over their lines once it is (Count and Identity may block until then).
type PendingCounter interface {
	TokenCounter
	Ready() bool
}

// WordRun summarises a text for whitespace-word counting: its words, its
// byte length (decoded, as UTF-8), and whether its first and last
// characters are non-space. Two runs concatenate without the texts:
// words(a+b) = words(a) + words(b) − 1 when a ends and b starts inside a
// word.
type WordRun struct {
	Words, Bytes int
	Lead, Trail  bool // first / last character is not a space (bytes > 0)
	BadUTF8      bool // a string of the run is not valid UTF-8
}

// Then returns the run of the concatenation r + s.
func (r WordRun) Then(s WordRun) WordRun {
	switch {
	case r.Bytes == 0:
		return s
	case s.Bytes == 0:
		return r
	}
	n := r.Words + s.Words
	if r.Trail && s.Lead {
		n--
	}
	return WordRun{Words: n, Bytes: r.Bytes + s.Bytes, Lead: r.Lead, Trail: s.Trail, BadUTF8: r.BadUTF8 || s.BadUTF8}
}

// SWAR constants: one byte value broadcast to the 8 bytes of a word.
const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
	swarLow7 = 0x7F7F7F7F7F7F7F7F
)

// swarSpecial is non-zero when x holds a byte the word loop cannot take 8
// at a time: '"', '\\', a control byte (< 0x20) or a non-ASCII byte. It
// may flag more bytes than those (borrows), never fewer: only whether it
// is zero matters.
func swarSpecial(x uint64) uint64 {
	q := x ^ (swarOnes * '"')
	b := x ^ (swarOnes * '\\')
	return (((q - swarOnes) &^ q) | ((b - swarOnes) &^ b) | (x - swarOnes*0x20) | x) & swarHigh
}

// swarNonSpace returns 0x80 in each byte of x (printable ASCII: no
// special) that is not ' ', exactly: x ^ ' ' is below 0x80 in every byte,
// so the add cannot carry across bytes.
func swarNonSpace(x uint64) uint64 {
	t := x ^ (swarOnes * ' ')
	return ((t & swarLow7) + swarLow7 | t) & swarHigh
}

// swarWords counts the word starts in b[j:] 16 or 8 bytes at a time while
// the bytes are printable ASCII other than '"' and '\\' (carry is 0x80
// when the byte before j is a space or there is none), stopping at the
// first other byte or when fewer than 8 bytes remain. It is a small leaf
// so that its state stays in registers.
func swarWords(b []byte, j int, carry uint64) (int, int, uint64) {
	words, n := 0, len(b)
	if HaveWordsSSE2 && j+16 <= n {
		var ps uint64
		j, words, ps = wordsSSE2(b, j, carry>>7)
		carry = ps << 7
		if j+16 <= n {
			return j, words, carry // stopped at a special byte
		}
	}
	if n < 8 {
		return j, words, carry
	}
	base := unsafe.Pointer(unsafe.SliceData(b))
	load := func(at int) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(base, at))[:]) }
	for j+16 <= n {
		x, y := load(j), load(j+8)
		if swarSpecial(x)|swarSpecial(y) != 0 {
			break
		}
		nx, ny := swarNonSpace(x), swarNonSpace(y)
		px := (^nx&swarHigh)<<8 | carry
		py := (^ny&swarHigh)<<8 | (^nx>>56)&0x80
		words += bits.OnesCount64(nx&px) + bits.OnesCount64(ny&py)
		carry = (^ny >> 56) & 0x80
		j += 16
	}
	for j+8 <= n {
		x := load(j)
		sp := swarSpecial(x)
		if sp == 0 {
			nx := swarNonSpace(x)
			words += bits.OnesCount64(nx & ((^nx&swarHigh)<<8 | carry))
			carry = (^nx >> 56) & 0x80
			j += 8
			continue
		}
		// The lowest flagged byte is a real special (borrows only flag
		// bytes above one): take the k bytes before it.
		if k := bits.TrailingZeros64(sp) >> 3; k > 0 {
			nx := swarNonSpace(x) & (uint64(1)<<(8*k) - 1)
			words += bits.OnesCount64(nx & ((^nx&swarHigh)<<8 | carry))
			carry = (^nx >> (8*k - 8)) & 0x80
			j += k
		}
		break
	}
	return j, words, carry
}

// ScanStringWords scans the JSON string starting at b[i] == '"' exactly as
// scanString validates it, and appends its decoded text to run without
// decoding it: printable ASCII goes 16 or 8 bytes at a time (the spaces
// of a word found with exact per-byte masks, word starts counted with a
// popcount; carry is 0x80 when the byte before is a space or there is
// none); escapes, control bytes and non-ASCII characters one at a time,
// classified as Python's str.isspace would classify what they decode to.
//
// With AVX2 the loop goes 32 bytes at a time through non-ASCII text and
// two-byte escapes too (wordsAVX2): on valid UTF-8, every byte of a
// character that is not a space can count as a non-space byte, and the
// multi-byte spaces (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028,
// U+2029, U+202F, U+205F, U+3000) all start with 0xC2, 0xE1, 0xE2 or
// 0xE3, bytes that are never inside a character, so stopping at those
// alone leaves every space to the exact per-character code. It checks
// the UTF-8 of the bytes it takes in the same pass, on the vectors.
//
// It also checks the string's UTF-8 (run.badUTF8): the counts are exact
// when the line is valid UTF-8; otherwise a caller must count the joined
// text instead (chunks may split a character).
func ScanStringWords(b []byte, i int, run *WordRun) (int, error) {
	return scanWords(b, i, run, false, false)
}

// ScanChunkWords is ScanStringWords over the strings of a chunk list from
// the one at b[i] on: while a string's closing quote is directly followed
// by `,"` (the separator msgspec writes between two strings of an array),
// the next string is scanned too, in the same loop, into the same run —
// their concatenation, as "".join(chunks) would make it. It returns the
// index after the last string it took; a list that goes on otherwise (a
// non-string, whitespace) is left to the caller there. A chunk list of
// one word a string thus costs no call per string.
func ScanChunkWords(b []byte, i int, run *WordRun) (int, error) {
	return scanWords(b, i, run, true, false)
}

// ScanWordsKnownUTF8 is ScanChunkWords (chunks) or ScanStringWords for a
// caller that knows b's UTF-8 validity already (the line split checked
// it): the vector loop leaves its own check out, and run.BadUTF8 is then
// not to be used.
func ScanWordsKnownUTF8(b []byte, i int, run *WordRun, chunks bool) (int, error) {
	return scanWords(b, i, run, chunks, true)
}

// scanWords is ScanStringWords (chunks false) and ScanChunkWords; known
// leaves the UTF-8 check of the vector loop out (ScanWordsKnownUTF8).
func scanWords(b []byte, i int, run *WordRun, chunks, known bool) (int, error) {
	var inList, trusted uint64 // wordsAVX2's flags
	if chunks {
		inList = 1
	}
	if known {
		trusted = 1
	}
	j := i + 1
	words, lead := run.Words, run.Lead
	needLead := run.Bytes == 0
	carry := uint64(0x80)
	if run.Trail {
		carry = 0
	}
	start, extra := j, 0 // decoded length = j - start + extra
	for {
		if !needLead {
			var w int
			if HaveWordsAVX2 && j >= 3 && j+32 <= len(b) {
				var ps, bad uint64
				var dropped int
				j, w, ps, dropped, bad = wordsAVX2(b, j, carry>>7, inList, trusted)
				carry, extra = ps<<7, extra-dropped
				if bad != 0 {
					run.BadUTF8 = true
				}
			} else {
				j, w, carry = swarWords(b, j, carry)
			}
			words += w
		}
		if j >= len(b) {
			return 0, ErrJSON
		}
		c := b[j]
		var space bool
		switch {
		case c == '"':
			if chunks && j+3 < len(b) && b[j+1] == ',' && b[j+2] == '"' {
				j += 3 // the next chunk: its text follows this one's
				extra -= 3
				continue
			}
			run.Words, run.Bytes, run.Lead, run.Trail = words, run.Bytes+j-start+extra, lead, carry == 0
			return j + 1, nil
		case c == '\\':
			if j+1 >= len(b) {
				return 0, ErrJSON
			}
			switch b[j+1] {
			case 'n', 't', 'r', 'f':
				space = true
				j += 2
				extra--
			case '"', '\\', '/', 'b':
				j += 2
				extra--
			case 'u':
				if j+6 > len(b) || !isHex4(b[j+2:j+6]) {
					return 0, ErrJSON
				}
				r := hexVal(b[j+2 : j+6])
				j += 6
				switch {
				case utf16IsHigh(r) && j+6 <= len(b) && b[j] == '\\' && b[j+1] == 'u' &&
					isHex4(b[j+2:j+6]) && utf16IsLow(hexVal(b[j+2:j+6])):
					j += 6
					extra += 4 - 12 // a supplementary character: never a space
				case utf16IsHigh(r) || utf16IsLow(r):
					extra += 3 - 6 // a lone surrogate decodes to U+FFFD
				default:
					space = PyIsSpace(r)
					extra += utf8.RuneLen(r) - 6
				}
			default:
				return 0, ErrJSON
			}
		case c < utf8.RuneSelf:
			space = PyIsSpace(rune(c))
			j++
		default:
			r, size := utf8.DecodeRune(b[j:])
			if r == utf8.RuneError && size == 1 {
				run.BadUTF8 = true
			}
			space = PyIsSpace(r) // RuneError is not a space
			j += size
		}
		if needLead {
			lead, needLead = !space, false
		}
		if space {
			carry = 0x80
		} else {
			if carry != 0 {
				words++
			}
			carry = 0
		}
	}
}

// ValidUTF8 is utf8.Valid, faster on mostly-ASCII text with a few
// multi-byte characters: after each one it goes back to skipping ASCII 8
// bytes at a time (utf8.Valid goes byte by byte after the first).
func ValidUTF8(b []byte) bool {
	for i := 0; i < len(b); {
		for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&swarHigh == 0 {
			i += 8
		}
		if i >= len(b) {
			return true
		}
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		i += size
	}
	return true
}

// ContextCounter is a TokenCounter whose count can fail or be cancelled
// mid-text (a *tokenizer.Tokenizer): ErrPatternTooExpensive, or ctx's
// cause.
type ContextCounter interface {
	CountContext(ctx context.Context, text string) (int, error)
}

// BoundCounter counts through CountContext under one decode's ctx; the
// first failure cancels that ctx with the failure as cause, and the
// decoder stops at its next look at ctx.
type BoundCounter struct {
	TokenCounter
	cc     ContextCounter
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu  sync.Mutex
	err error // the first failure of the counter itself (not ctx's)
}

func (b *BoundCounter) Count(text string) int {
	n, err := b.cc.CountContext(b.ctx, text)
	if err != nil {
		if b.ctx.Err() == nil {
			b.mu.Lock()
			if b.err == nil {
				b.err = err
			}
			b.mu.Unlock()
		}
		b.cancel(err)
		return 0
	}
	return n
}

// pendingBoundCounter is a boundCounter over a PendingCounter, still one.
type pendingBoundCounter struct {
	*BoundCounter
	pending PendingCounter
}

func (p pendingBoundCounter) Ready() bool { return p.pending.Ready() }

// BindCounter returns c bound to ctx (see boundCounter) when it counts
// through CountContext, with its PendingCounter side kept, and nil
// otherwise.
func BindCounter(ctx context.Context, c TokenCounter, cancel context.CancelCauseFunc) (TokenCounter, *BoundCounter) {
	cc, ok := c.(ContextCounter)
	if !ok {
		return c, nil
	}
	bc := &BoundCounter{TokenCounter: c, cc: cc, ctx: ctx, cancel: cancel}
	if p, ok := c.(PendingCounter); ok {
		return pendingBoundCounter{bc, p}, bc
	}
	return bc, bc
}

// Failure returns the counter's first failure, nil if none.
func (b *BoundCounter) Failure() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}
