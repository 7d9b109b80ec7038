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

// forEachLine calls fn for every line of buf, a run of complete lines
// (only the last block of a stream, final, may end without a
// terminator), with its block-local 1-based number; last marks an
// unterminated final line. It returns the number of lines and whether the
// last one was cut (unterminated and non-empty).
func forEachLine(buf []byte, final bool, fn func(line []byte, lineNo int64, last bool)) (lines int64, lastCut bool) {
	var lineNo int64
	for len(buf) > 0 {
		var line []byte
		nl := bytes.IndexByte(buf, '\n')
		terminated := nl >= 0
		if nl < 0 {
			line, buf = buf, nil
		} else {
			line, buf = buf[:nl], buf[nl+1:]
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
			terminated = true
		}
		// A lone \r inside ends a line too.
		for {
			cr := bytes.IndexByte(line, '\r')
			if cr < 0 {
				break
			}
			lineNo++
			fn(line[:cr], lineNo, false)
			line = line[cr+1:]
		}
		lineNo++
		last := !terminated && len(buf) == 0 && final
		if last {
			lastCut = len(line) > 0
		}
		fn(line, lineNo, last)
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

// decodeOne decodes one raw line into d.res.
func (d *lineDecoder) decodeOne(line []byte, lineNo int64, last bool) {
	res := d.res
	line = pyStrip(line)
	if len(line) == 0 {
		return
	}
	res.events = append(res.events, event{})
	if !d.decode(line, lineNo, last, &res.events[len(res.events)-1]) {
		res.events = res.events[:len(res.events)-1]
	}
}
