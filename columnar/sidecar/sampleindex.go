package sidecar

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// This file reads sample_idx_map.json, {"performance": {uuid: index,
// ...}, <other phase>: {...}}, with the project's own streaming scanner:
// a small window of the file at a time (a 5 M-entry map is 225 MB of
// JSON), the uuids packed to 16 bytes in a column and found through the
// decoder's open-addressing index. Grammar and the duplicate-key rule
// (last wins) are Python's json module's, as everywhere in this package.

// maxSidecarToken caps one JSON string or number of the index map.
const maxSidecarToken = 1 << 20

// SampleIndex is sample_idx_map.json's "performance" map.
type SampleIndex struct {
	// MaxIndex is the largest index (-1 when empty).
	MaxIndex int64
	// Phases lists the phase names of the file, sorted.
	Phases []string
	// Performance reports a "performance" object in the file.
	Performance bool

	keys  [][16]byte // packed uuids of 32 lowercase hex digits, in file order
	vals  []int32    // their indices (-1: not an index; -2: in big; valDead: a duplicate)
	big   map[int32]int64
	index scan.UUIDIndex // uuid → position in keys
	other map[string]int64

	bg *backgroundBuild // the index being built during the parse

	touched uint64 // keeps build's slot loads from being optimised away
}

// valDead marks a uuid's earlier entry replaced by a later duplicate.
const valDead = -3

// val is the index at position pos (-1: none).
func (si *SampleIndex) val(pos int32) int64 {
	switch v := si.vals[pos]; {
	case v >= 0:
		return int64(v)
	case v == -2:
		return si.big[pos]
	}
	return -1
}

// Len returns the number of uuids with an index.
func (si *SampleIndex) Len() int {
	n := 0
	for _, v := range si.vals {
		if v >= 0 || v == -2 {
			n++
		}
	}
	for _, v := range si.other {
		if v >= 0 {
			n++
		}
	}
	return n
}

// Lookup returns the dataset index of uuid.
func (si *SampleIndex) Lookup(uuid string) (int64, bool) {
	var k [16]byte
	if len(uuid) == 32 && scan.PackHex(&k, []byte(uuid)) {
		if pos, ok := si.index.Lookup(si.keys, &k); ok && si.vals[pos] != -1 {
			return si.val(pos), true
		}
		return 0, false
	}
	v, ok := si.other[uuid]
	return v, ok && v >= 0
}

// Set records uuid → v (v < 0: not an index, which hides an earlier one).
func (si *SampleIndex) Set(uuid []byte, v int64) {
	var k [16]byte
	if len(uuid) == 32 && scan.PackHex(&k, uuid) {
		si.setPacked(&k, v)
		return
	}
	if si.other == nil {
		si.other = make(map[string]int64)
	}
	si.other[string(uuid)] = v
}

// setPacked records a packed uuid → v.
func (si *SampleIndex) setPacked(k *[16]byte, v int64) {
	{
		// Indexed in build, after the parse: a tight loop whose
		// independent probes overlap their cache misses.
		pos := int32(len(si.keys))
		si.keys = append(si.keys, *k)
		si.vals = append(si.vals, 0)
		switch {
		case v < 0:
			si.vals[pos] = -1
		case v <= 1<<31-1:
			si.vals[pos] = int32(v)
		default:
			si.vals[pos] = -2
			if si.big == nil {
				si.big = make(map[int32]int64)
			}
			si.big[pos] = v
		}
	}
}

func (si *SampleIndex) resetPerformance() {
	si.stopBuild()
	si.keys, si.vals, si.other, si.big = si.keys[:0], si.vals[:0], nil, nil
	si.index.Reset()
}

// build indexes the keys in file order; a later duplicate's value
// replaces the earlier one's (last wins) and is left out of the table.
func (si *SampleIndex) build() {
	x := &si.index
	x.Reset()
	x.HugePages = true
	x.Ensure(si.keys, len(si.keys))
	si.touched += x.Insert(si.keys, 0, len(si.keys), si.replace)
}

// replace lets the later duplicate at i give its value to the earlier
// entry at pos, and marks i dead.
func (si *SampleIndex) replace(pos, i int32) {
	si.vals[pos] = si.vals[i]
	if si.vals[i] == -2 {
		si.big[pos] = si.big[i]
	}
	si.vals[i] = valDead
}

// backgroundBuild indexes the keys while the parser is still appending
// them (a 5 M-entry map: the table's cache misses cost as much as the
// parse, and the two then share the cores). It works on the columns'
// backing arrays as the parser reserved them: the parser only appends
// past what it has handed over, and the builder writes only the table
// and its own list of duplicates, applied once the parse is done. When
// an append outgrows the reservation (a size that was unknown or wrong)
// or the "performance" map starts over, the background build is dropped
// and build runs after the parse instead.
type backgroundBuild struct {
	keys   [][16]byte // the reserved backing array, full capacity
	handed int        // keys[:handed] are handed over (the parser's count)
	ready  chan int   // each new handed count
	done   chan struct{}
	dups   [][2]int32 // the builder's: (earlier position, later duplicate)
	touch  uint64
}

// wait ends the background build and waits for its goroutine.
func (bg *backgroundBuild) wait() {
	close(bg.ready)
	<-bg.done
}

// minBackgroundBuild is the reservation below which building after the
// parse is as fast (the table fits in cache).
const minBackgroundBuild = 1 << 18

// startBuild starts indexing in the background, if the reservation is
// large enough to pay for it.
func (si *SampleIndex) startBuild() {
	if cap(si.keys) < minBackgroundBuild || len(si.keys) != 0 {
		return
	}
	x := &si.index
	x.Reset()
	x.HugePages = true
	x.Ensure(si.keys, cap(si.keys))
	bg := &backgroundBuild{keys: si.keys[:cap(si.keys)], ready: make(chan int, 8), done: make(chan struct{})}
	go func() {
		defer close(bg.done)
		lo := 0
		for hi := range bg.ready {
			bg.touch += x.Insert(bg.keys, lo, hi, func(pos, i int32) { bg.dups = append(bg.dups, [2]int32{pos, i}) })
			lo = hi
		}
	}()
	si.bg = bg
}

// feedBuild hands the keys parsed so far to the background build, every
// 32 Ki of them; it drops the build when the keys have moved.
func (si *SampleIndex) feedBuild(final bool) {
	bg := si.bg
	if bg == nil || !final && len(si.keys)-bg.handed < 1<<15 {
		return
	}
	if cap(si.keys) != len(bg.keys) || len(si.keys) > 0 && &si.keys[0] != &bg.keys[0] {
		si.stopBuild()
		return
	}
	bg.handed = len(si.keys)
	bg.ready <- bg.handed
}

// stopBuild drops a background build (a reset, a move of the keys or a
// failed parse) and waits for its goroutine.
func (si *SampleIndex) stopBuild() {
	if si.bg != nil {
		si.bg.wait()
		si.bg = nil
		si.index.Reset()
	}
}

// finishBuild completes the index once the parse is done: the background
// build's last keys and its duplicates, in file order, or build.
func (si *SampleIndex) finishBuild() {
	si.feedBuild(true)
	bg := si.bg
	if bg == nil {
		si.build()
		return
	}
	bg.wait()
	si.bg = nil
	si.touched += bg.touch
	for _, d := range bg.dups {
		si.replace(d[0], d[1])
	}
}

// reserve sizes the columns for n more entries: in new arrays (not
// slices.Grow, whose append of zeros clears them page by page) advised to
// huge pages, as the parse fills them whole.
func (si *SampleIndex) reserve(n int) {
	if cap(si.keys)-len(si.keys) < n {
		si.keys = append(safeopen.HugeRoom[[16]byte](len(si.keys)+n), si.keys...)
	}
	if cap(si.vals)-len(si.vals) < n {
		si.vals = append(safeopen.HugeRoom[int32](len(si.vals)+n), si.vals...)
	}
}

// finish computes MaxIndex.
func (si *SampleIndex) finish() {
	si.MaxIndex = -1
	for pos, v := range si.vals {
		if v >= 0 || v == -2 {
			si.MaxIndex = max(si.MaxIndex, si.val(int32(pos)))
		}
	}
	for _, v := range si.other {
		si.MaxIndex = max(si.MaxIndex, v)
	}
}

func (r *sidecarRun) readSampleIndex(path string) {
	const kind, limit = "sample_idx_map.json", safeopen.LimitSampleIndex
	f, err := safeopen.Open(path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			r.Warnf("%v; ignored", sidecarError(path, err))
		}
		return
	}
	defer f.Close()
	var size int64
	if fi, err := f.Stat(); err == nil {
		size = fi.Size()
	}
	if size > limit {
		r.Warnf("%v; ignored", &safeopen.Error{Path: path, Kind: kind, Limit: limit, Err: safeopen.ErrTooLarge})
		return
	}
	si, bad, err := ParseSampleIndex(r.ctx, safeopen.LimitReader(f, path, kind, limit), size)
	var refused *safeopen.Error
	switch {
	case r.ctx.Err() != nil:
		return // the caller says why; no index, no warning
	case errors.As(err, &refused):
		r.Warnf("%v; ignored", refused)
		return
	case errors.Is(err, errPerformanceNotObject):
		r.Warnf("%s: \"performance\" is not an object, ignored", path)
		return
	case err != nil:
		r.Warnf("%s: malformed JSON, ignored: %v", path, err)
		return
	}
	if bad > 0 {
		r.Warnf("%s: %d entries without a non-negative integer index, ignored", path, bad)
	}
	r.Sidecars.SampleIndex = si
}

var errPerformanceNotObject = errors.New(`"performance" is not an object`)

// sampleIndexWindow is the parse's read window: a read a few hundred
// entries, and four fresh pages where 64 KiB were sixteen (a small run's
// whole map is about 120 KiB; issue 32, warm small analyze). A token
// longer than it grows it.
const sampleIndexWindow = 16 << 10

// ParseSampleIndex reads a sample index map from r, of about size bytes
// (0 unknown): the columns are sized for the entries such a file can hold
// at 40 bytes an entry (a 32-digit uuid, its index and the punctuation
// take 40 to 46), so they are allocated once. bad counts entries
// whose value is not a non-negative integer (in the final map). ctx is
// looked at before each read of the file (a 16 KiB window, about 400
// entries): once it is done the parse ends with ctx's error and no index.
func ParseSampleIndex(ctx context.Context, r io.Reader, size int64) (si *SampleIndex, bad int, err error) {
	s := &jsonStream{ctx: ctx, r: r, buf: make([]byte, 0, sampleIndexWindow)}
	si = &SampleIndex{MaxIndex: -1}
	si.index.Reset()
	if c, ok := s.peekNonSpace(); ok && c == 'n' { // null: no phases, as encoding/json has it
		if err := s.Skip(0); err != nil {
			return nil, 0, err
		}
		return si, 0, s.end()
	}
	if err := s.expect('{'); err != nil {
		return nil, 0, err
	}
	var key []byte
	phases := map[string]bool{}
	notObject := false
	err = s.Members('}', func() error {
		var err error
		if key, err = s.str(key[:0]); err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		name := string(key)
		phases[name] = true
		if name != "performance" {
			return s.Skip(1)
		}
		c, _ := s.peekNonSpace()
		notObject = c != '{' && c != 'n'
		if c != '{' {
			si.Performance = c == 'n' // null reads as an empty map, as encoding/json has it
			si.resetPerformance()
			return s.Skip(1)
		}
		si.Performance = true
		si.resetPerformance()
		si.reserve(int(min(size/40, 1<<28)))
		si.startBuild()
		s.i++
		var uuid []byte
		return s.Members('}', func() error {
			si.feedBuild(false)
			if s.fastEntry(si) {
				return nil
			}
			var err error
			if uuid, err = s.str(uuid[:0]); err != nil {
				return err
			}
			if err := s.expect(':'); err != nil {
				return err
			}
			v, err := s.index()
			if err != nil {
				return err
			}
			si.Set(uuid, v)
			return nil
		})
	})
	if err == nil {
		err = s.end()
	}
	if err != nil || notObject {
		si.stopBuild()
	}
	if err != nil {
		return nil, 0, err
	}
	if notObject {
		return nil, 0, errPerformanceNotObject
	}
	si.finishBuild()
	for name := range phases {
		si.Phases = append(si.Phases, name)
	}
	sort.Strings(si.Phases)
	for _, v := range si.vals {
		if v == -1 {
			bad++
		}
	}
	for _, v := range si.other {
		if v < 0 {
			bad++
		}
	}
	si.finish()
	return si, bad, nil
}

// jsonStream is a JSON scanner over a reader through a sliding window
// (buf[i:] is unread); values are scanned in the window with the
// package's scanner and the window grows, up to maxSidecarToken past its
// normal size, only for a token that does not fit.
type jsonStream struct {
	ctx context.Context
	r   io.Reader
	buf []byte
	i   int
	eof bool
	err error // read error
	off int64 // file offset of buf[0]
}

// fill reads more, keeping buf[i:]; it reports whether bytes were added.
func (s *jsonStream) fill() bool {
	if s.eof {
		return false
	}
	if err := s.ctx.Err(); err != nil {
		s.err, s.eof = err, true
		return false
	}
	if s.i > 0 {
		n := copy(s.buf, s.buf[s.i:])
		s.off += int64(s.i)
		s.buf, s.i = s.buf[:n], 0
	}
	if len(s.buf) == cap(s.buf) {
		if cap(s.buf) > maxSidecarToken+64<<10 {
			s.err = fmt.Errorf("a JSON token longer than %d bytes", maxSidecarToken)
			s.eof = true
			return false
		}
		nb := make([]byte, len(s.buf), 2*cap(s.buf))
		copy(nb, s.buf)
		s.buf = nb
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if err != nil {
		s.eof = true
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
	}
	return n > 0 || !s.eof
}

func (s *jsonStream) fail() error {
	if s.err != nil {
		return s.err
	}
	return fmt.Errorf("JSON syntax error near byte %d", s.off+int64(s.i))
}

// peekNonSpace skips whitespace and returns the next byte.
func (s *jsonStream) peekNonSpace() (byte, bool) {
	for {
		s.i = scan.SkipWS(s.buf, s.i)
		if s.i < len(s.buf) {
			return s.buf[s.i], true
		}
		if !s.fill() {
			return 0, false
		}
	}
}

func (s *jsonStream) expect(c byte) error {
	if b, ok := s.peekNonSpace(); !ok || b != c {
		return s.fail()
	}
	s.i++
	return nil
}

// end checks that only whitespace is left.
func (s *jsonStream) end() error {
	if _, ok := s.peekNonSpace(); ok {
		return s.fail() // "Extra data"
	}
	return s.err
}

// Members calls member for each member of the object (closer '}') or
// array (']') whose opening bracket was just read, then reads the closer.
func (s *jsonStream) Members(closer byte, member func() error) error {
	if c, ok := s.peekNonSpace(); ok && c == closer {
		s.i++
		return nil
	}
	for {
		if err := member(); err != nil {
			return err
		}
		c, ok := s.peekNonSpace()
		switch {
		case !ok:
			return s.fail()
		case c == closer:
			s.i++
			return nil
		case c != ',':
			return s.fail()
		}
		s.i++
	}
}

// scalar scans the string, number or literal at the window's head with
// scanFn, growing the window while the token may continue past its end.
func (s *jsonStream) scalar(scanFn func(b []byte, i int) (scan.Value, error)) (scan.Value, error) {
	if _, ok := s.peekNonSpace(); !ok {
		return scan.Value{}, s.fail()
	}
	for {
		v, err := scanFn(s.buf, s.i)
		// A number's grammar looks up to 3 bytes past what it takes ("1.",
		// "1e+"): scan again in a wider window until they are in it.
		if (err != nil || v.End+3 > len(s.buf)) && !s.eof {
			s.fill()
			continue
		}
		if err != nil {
			return scan.Value{}, s.fail()
		}
		return v, nil
	}
}

// fastEntry takes the writer's entry shape, "<32 lowercase hex>": digits,
// straight from the window without the general scanner; anything else
// (or a window too short to hold it) is left to the general path.
func (s *jsonStream) fastEntry(si *SampleIndex) bool {
	if _, ok := s.peekNonSpace(); !ok || len(s.buf)-s.i < 80 {
		return false
	}
	b := s.buf[s.i:]
	var k [16]byte
	if b[0] != '"' || b[33] != '"' || !scan.PackHex(&k, b[1:33]) {
		return false
	}
	j := 34
	for j < 48 && b[j] == ' ' {
		j++
	}
	if b[j] != ':' {
		return false
	}
	j++
	for j < 64 && b[j] == ' ' {
		j++
	}
	start := j
	var v int64
	for j < len(b) && j-start < 18 && b[j] >= '0' && b[j] <= '9' {
		v = v*10 + int64(b[j]-'0')
		j++
	}
	if n := j - start; n == 0 || n > 1 && b[start] == '0' || j >= len(b) {
		return false
	}
	switch b[j] {
	case ',', '}', ' ', '\n', '\r', '\t':
	default:
		return false // a fraction, an exponent, a long number: the general path
	}
	si.setPacked(&k, v)
	s.i += j
	return true
}

// scanStringValue and scanScalar are the scans of jsonStream.scalar (not
// closures: one would be allocated per token). A scalar is never a
// container, so its depth does not matter.
func scanStringValue(b []byte, i int) (scan.Value, error) {
	end, esc, err := scan.ScanString(b, i)
	return scan.Value{Kind: scan.VString, Esc: esc, Start: i, End: end}, err
}

func scanScalar(b []byte, i int) (scan.Value, error) { return scan.ScanValue(b, i, 1) }

// str reads a string, appending its decoded body to dst.
func (s *jsonStream) str(dst []byte) ([]byte, error) {
	if c, ok := s.peekNonSpace(); !ok || c != '"' {
		return nil, s.fail()
	}
	v, err := s.scalar(scanStringValue)
	if err != nil {
		return nil, err
	}
	dst = scan.AppendUnescaped(dst, s.buf, v)
	s.i = v.End
	return dst, nil
}

// index reads a member value of the performance map: a non-negative
// integer, else -1 (any other valid JSON value).
func (s *jsonStream) index() (int64, error) {
	c, ok := s.peekNonSpace()
	if !ok {
		return 0, s.fail()
	}
	if c == '{' || c == '[' {
		return -1, s.Skip(2)
	}
	v, err := s.scalar(scanScalar)
	if err != nil {
		return 0, err
	}
	s.i = v.End
	if v.Kind != scan.VNumber {
		return -1, nil
	}
	n, _, isFloat, ok := scan.NumberInt(s.buf, v)
	if isFloat || !ok || n < 0 {
		return -1, nil
	}
	return n, nil
}

// Skip skips one value at the given depth, streaming through containers.
func (s *jsonStream) Skip(depth int) error {
	c, ok := s.peekNonSpace()
	if !ok {
		return s.fail()
	}
	if c != '{' && c != '[' {
		v, err := s.scalar(scanScalar)
		if err != nil {
			return err
		}
		s.i = v.End
		return nil
	}
	if depth >= scan.MaxDepth {
		return s.fail()
	}
	s.i++
	var key []byte
	closer := byte(']')
	if c == '{' {
		closer = '}'
	}
	return s.Members(closer, func() error {
		if c == '{' {
			var err error
			if key, err = s.str(key[:0]); err != nil {
				return err
			}
			if err := s.expect(':'); err != nil {
				return err
			}
		}
		return s.Skip(depth + 1)
	})
}
