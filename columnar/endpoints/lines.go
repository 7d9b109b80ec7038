package endpoints

import (
	"bytes"

	"github.com/steadysweep/steadysweep/columnar/scan"
)

// This file splits a block of complete lines the way Python's text-mode
// file iteration does (universal newlines: \n, \r\n and a lone \r end a
// line) and strips each line as str.strip() does.

// blockResult is what phase 1 produces for one block.
type blockResult struct {
	events     []Event
	issues     []LineIssue
	lines      int64 // lines in the block
	counts     [NumEvKinds]int64
	otherTypes map[string]int64
	lastCut    bool // the block's last line had no line terminator
}

// LineFacts is what the line split learnt of a line's bytes in the same
// pass, so that the decoder need not look again; zero is "nothing known".
type LineFacts uint8

const (
	FactsKnown  LineFacts = 1 << iota // the other bits are set
	FactNUL                           // the line holds a NUL byte
	FactHigh                          // the line holds a byte 0x80 and up
	FactBadUTF8                       // the line is not valid UTF-8
)

// LineStop returns the index of the first '\n' or '\r' in b (len(b) if
// none) and, with AVX2, the facts of b before it (its UTF-8 validity
// among them), in one pass; without, two memchr passes and no facts.
func LineStop(b []byte) (int, LineFacts) {
	if scan.HaveWordsAVX2 {
		i, nul, high, bad := scan.LineStopAVX2(b)
		f := FactsKnown
		if nul != 0 {
			f |= FactNUL
		}
		if high != 0 {
			f |= FactHigh
		}
		if bad != 0 {
			f |= FactBadUTF8
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

// ForEachLine calls fn for every line of buf, a run of complete lines
// (only the last block of a stream, final, may end without a
// terminator), with its block-local 1-based number and its lineFacts;
// last marks an unterminated final line. \n, \r\n and a lone \r each end
// a line. It returns the number of lines and whether the last one was cut
// (unterminated and non-empty).
func ForEachLine(buf []byte, final bool, fn func(line []byte, lineNo int64, last bool, facts LineFacts)) (lines int64, lastCut bool) {
	var lineNo int64
	for len(buf) > 0 {
		end, facts := LineStop(buf)
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
func (d *LineDecoder) decodeBlock(buf []byte, final bool, res *blockResult) {
	res.events = res.events[:0]
	d.Issues = res.issues[:0]
	d.Counts = [NumEvKinds]int64{}
	d.OtherTypes = nil
	d.res = res
	if d.pending != nil {
		d.CountText = d.countWanted && d.pending.Ready()
	}
	res.lines, res.lastCut = ForEachLine(buf, final, d.lineFn)
	res.issues = d.Issues
	res.counts = d.Counts
	res.otherTypes = d.OtherTypes
}

// decodeOne decodes one raw line into d.res. Its facts hold for the
// stripped line too: stripping removes no NUL and adds no byte (factHigh
// may stay set for a line whose only such bytes were stripped spaces,
// which costs only the check it would have saved).
func (d *LineDecoder) decodeOne(line []byte, lineNo int64, last bool, facts LineFacts) {
	res := d.res
	line = scan.PyStrip(line)
	if len(line) == 0 {
		return
	}
	d.Facts = facts
	res.events = append(res.events, Event{})
	if !d.Decode(line, lineNo, last, &res.events[len(res.events)-1]) {
		res.events = res.events[:len(res.events)-1]
	}
}
