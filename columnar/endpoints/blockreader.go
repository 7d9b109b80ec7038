package endpoints

import (
	"bytes"
	"errors"
	"io"

	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// blockReader cuts a byte stream into blocks of whole lines, with a
// bounded buffer: a block is about blockSize bytes, a line longer than
// maxLine is skipped (reported as one overlong line) without being held.
type blockReader struct {
	r         io.Reader
	blockSize int
	maxLine   int
	carry     []byte
	eof       bool
	err       error // first read error other than io.EOF
	read      int64 // bytes consumed from r
	discard   []byte
	// hugeBuffers asks for the blocks' buffers in one huge-page array
	// (giveBlockBuffers).
	hugeBuffers bool
}

// giveBlockBuffers gives each block without a buffer of blockSize one cut
// from a single array advised to huge pages (safeopen.HugeRoom): their
// first fill is the read's (a stream that fills them all), and in 4 KiB
// pages it took a page fault per 4 KiB — 384 for six blocks of 256 KiB,
// ~17 µs each on the benchmark's virtual machines, in the serial reader.
func giveBlockBuffers(blocks []*block, blockSize int) {
	n := 0
	for _, b := range blocks {
		if cap(b.buf) < blockSize {
			n++
		}
	}
	if n == 0 {
		return
	}
	arena := safeopen.HugeRoom[byte](max(n*blockSize, 4<<20))
	arena = arena[:cap(arena)]
	for _, b := range blocks {
		if cap(b.buf) < blockSize {
			b.buf, arena = arena[:0:blockSize], arena[blockSize:]
		}
	}
}

// block is one unit of phase-1 work.
type block struct {
	seq     int
	buf     []byte
	final   bool // last block of the stream
	tooLong bool // buf is empty: one overlong line was skipped
	err     error
	res     blockResult
}

// Next fills b with the next block. It returns false when the stream is
// exhausted (b untouched).
func (br *blockReader) Next(b *block) bool {
	if br.eof && len(br.carry) == 0 {
		return false
	}
	b.buf = append(b.buf[:0], br.carry...)
	br.carry = br.carry[:0]
	b.final, b.tooLong, b.err = false, false, nil
	searched := 0
	for {
		if !br.eof && len(b.buf) < br.blockSize {
			if cap(b.buf) < br.blockSize {
				nb := make([]byte, len(b.buf), br.blockSize)
				copy(nb, b.buf)
				b.buf = nb
			}
			br.fill(b)
			continue
		}
		if i := bytes.LastIndexByte(b.buf[searched:], '\n'); i >= 0 {
			i += searched
			br.carry = append(br.carry, b.buf[i+1:]...)
			b.buf = b.buf[:i+1]
			if br.eof && len(br.carry) == 0 {
				b.final = true
				b.err = br.err
			}
			return true
		}
		if br.eof {
			b.final = true
			b.err = br.err
			return true
		}
		searched = len(b.buf)
		if len(b.buf) >= br.maxLine {
			br.skipLine()
			b.buf = b.buf[:0]
			b.tooLong = true
			b.final = br.eof && len(br.carry) == 0
			b.err = br.err
			return true
		}
		// Grow for a long line and read more.
		if len(b.buf) == cap(b.buf) {
			nb := make([]byte, len(b.buf), min(2*cap(b.buf), br.maxLine+1))
			copy(nb, b.buf)
			b.buf = nb
		}
		br.fill(b)
	}
}

// fill reads once into the free capacity of b.buf.
func (br *blockReader) fill(b *block) {
	n, err := br.r.Read(b.buf[len(b.buf):cap(b.buf)])
	b.buf = b.buf[:len(b.buf)+n]
	br.read += int64(n)
	if err != nil {
		br.eof = true
		if !errors.Is(err, io.EOF) {
			br.err = err
		}
	}
}

// skipLine discards input up to and including the next newline; the
// rest of what it read becomes the carry.
func (br *blockReader) skipLine() {
	if br.discard == nil {
		br.discard = make([]byte, 1<<20)
	}
	for !br.eof {
		n, err := br.r.Read(br.discard)
		br.read += int64(n)
		if err != nil {
			br.eof = true
			if !errors.Is(err, io.EOF) {
				br.err = err
			}
		}
		if i := bytes.IndexByte(br.discard[:n], '\n'); i >= 0 {
			br.carry = append(br.carry, br.discard[i+1:n]...)
			return
		}
	}
}
