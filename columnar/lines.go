package columnar

import (
	"bytes"
	"unicode/utf8"
)

// This file splits a block of complete lines the way Python's text-mode
// file iteration does (universal newlines: \n, \r\n and a lone \r end a
// line) and strips each line as str.strip() does.

// pyIsSpace reports whether Python's str.isspace is true for r.
func pyIsSpace(r rune) bool {
	switch {
	case r == ' ' || r >= '\t' && r <= '\r' || r >= 0x1C && r <= 0x1F:
		return true
	case r < 0x80:
		return false
	case r == 0x85 || r == 0xA0 || r == 0x1680 || r >= 0x2000 && r <= 0x200A ||
		r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000:
		return true
	}
	return false
}

// pyStrip removes leading and trailing Python whitespace.
func pyStrip(b []byte) []byte {
	for len(b) > 0 {
		c := b[0]
		if c < utf8.RuneSelf {
			if c > ' ' && (c < 0x1C || c > 0x1F) {
				break
			}
			if !pyIsSpace(rune(c)) {
				break
			}
			b = b[1:]
			continue
		}
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError || !pyIsSpace(r) {
			break
		}
		b = b[size:]
	}
	for len(b) > 0 {
		c := b[len(b)-1]
		if c < utf8.RuneSelf {
			if c > ' ' && (c < 0x1C || c > 0x1F) {
				break
			}
			if !pyIsSpace(rune(c)) {
				break
			}
			b = b[:len(b)-1]
			continue
		}
		r, size := utf8.DecodeLastRune(b)
		if r == utf8.RuneError || !pyIsSpace(r) {
			break
		}
		b = b[:len(b)-size]
	}
	return b
}

// blockResult is what phase 1 produces for one block.
type blockResult struct {
	events     []event
	issues     []lineIssue
	lines      int64 // lines in the block
	counts     [numEvKinds]int64
	otherTypes map[string]int64
	lastCut    bool // the block's last line had no line terminator
}

// lineFacts is what the line split learnt of a line's bytes in the same
// pass, so that the decoder need not look again; zero is "nothing known".
type lineFacts uint8

const (
	factsKnown lineFacts = 1 << iota // the other bits are set
	factNUL                          // the line holds a NUL byte
	factHigh                         // the line holds a byte 0x80 and up
)

// lineStop returns the index of the first '\n' or '\r' in b (len(b) if
// none) and, with AVX2, the facts of b before it, in one pass; without,
// two memchr passes and no facts.
func lineStop(b []byte) (int, lineFacts) {
	if haveWordsAVX2 {
		i, nul, high := lineStopAVX2(b)
		f := factsKnown
		if nul != 0 {
			f |= factNUL
		}
		if high != 0 {
			f |= factHigh
		}
		return i, f
	}
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		i = len(b)
	}
	if cr := bytes.IndexByte(b[:i], '\r'); cr >= 0 {
		i = cr
	}
	return i, 0
}

// forEachLine calls fn for every line of buf, a run of complete lines
// (only the last block of a stream, final, may end without a
// terminator), with its block-local 1-based number and its lineFacts;
// last marks an unterminated final line. \n, \r\n and a lone \r each end
// a line. It returns the number of lines and whether the last one was cut
// (unterminated and non-empty).
func forEachLine(buf []byte, final bool, fn func(line []byte, lineNo int64, last bool, facts lineFacts)) (lines int64, lastCut bool) {
	var lineNo int64
	for len(buf) > 0 {
		end, facts := lineStop(buf)
		line := buf[:end]
		terminated := end < len(buf)
		switch {
		case !terminated:
			buf = nil
		case buf[end] == '\r' && end+1 < len(buf) && buf[end+1] == '\n':
			buf = buf[end+2:]
		default:
			buf = buf[end+1:]
		}
		lineNo++
		last := !terminated && final
		if last {
			lastCut = len(line) > 0
		}
		fn(line, lineNo, last, facts)
	}
	return lineNo, lastCut
}

// decodeBlock runs phase 1 over one block. Line numbers in the result
// are block-local, 1-based.
func (d *lineDecoder) decodeBlock(buf []byte, final bool, res *blockResult) {
	res.events = res.events[:0]
	d.issues = res.issues[:0]
	d.counts = [numEvKinds]int64{}
	d.otherTypes = nil
	d.res = res
	if d.pending != nil {
		d.countText = d.countWanted && d.pending.Ready()
	}
	res.lines, res.lastCut = forEachLine(buf, final, d.lineFn)
	res.issues = d.issues
	res.counts = d.counts
	res.otherTypes = d.otherTypes
}

// decodeOne decodes one raw line into d.res. Its facts hold for the
// stripped line too: stripping removes no NUL and adds no byte (factHigh
// may stay set for a line whose only such bytes were stripped spaces,
// which costs only the check it would have saved).
func (d *lineDecoder) decodeOne(line []byte, lineNo int64, last bool, facts lineFacts) {
	res := d.res
	line = pyStrip(line)
	if len(line) == 0 {
		return
	}
	d.facts = facts
	res.events = append(res.events, event{})
	if !d.decode(line, lineNo, last, &res.events[len(res.events)-1]) {
		res.events = res.events[:len(res.events)-1]
	}
}
