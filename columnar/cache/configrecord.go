package cache

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/steadysweep/steadysweep/columnar/sidecar"
)

// A config memo's record (ConfigMemo) is binary, every field of
// sidecar.Config in a fixed order: a string or the document as its
// length (uvarint) and bytes, an int as a varint, a float64 as its 8 bytes
// (little-endian bits, so exactly the value parsed), a bool as one byte,
// a list as its length and its elements. It starts with configMagic and
// the memo version, and must be consumed exactly. (As JSON through
// encoding/json its reflection cost a warm analyze more pages than the
// record saved.) TestConfigRecordEveryField fails on a field of Config
// this codec does not carry.

// configMagic starts every record.
const configMagic = "SSWCONF\n"

// encodeConfigRecord is the record of doc read as c.
func encodeConfigRecord(doc []byte, c *sidecar.Config) []byte {
	var e recordWriter
	e.b = append(make([]byte, 0, 2*len(doc)+256), configMagic...)
	e.int(sidecar.ConfigMemoVersion)
	e.bytes(doc)
	e.str(c.Type)
	e.str(c.Model)
	e.str(c.TokenizerName)
	e.str(c.Streaming)
	e.str(c.LoadPattern)
	e.int(c.TargetConcurrency)
	e.float(c.TargetQPS)
	e.float(c.MinDurationMs)
	e.float(c.MaxDurationMs)
	e.int(c.NSamplesToIssue)
	e.bool(c.Warmup.Enabled)
	e.bool(c.Warmup.Salt)
	e.bool(c.Warmup.Drain)
	e.int(c.Warmup.NRequests)
	e.list(c.Datasets == nil, len(c.Datasets))
	for _, d := range c.Datasets {
		e.str(d.Name)
		e.str(d.Type)
		e.str(d.Path)
		e.bool(d.Agentic)
		e.int(d.NumTrajectories)
	}
	e.str(c.APIType)
	e.list(c.Endpoints == nil, len(c.Endpoints))
	for _, u := range c.Endpoints {
		e.str(u)
	}
	return e.b
}

// decodeConfigRecord is the Config of record b when b is a whole record
// of this version for exactly the document doc.
func decodeConfigRecord(b, doc []byte) (*sidecar.Config, bool) {
	rest, ok := bytes.CutPrefix(b, []byte(configMagic))
	if !ok {
		return nil, false
	}
	d := recordReader{b: rest, ok: true}
	if d.int() != sidecar.ConfigMemoVersion || !bytes.Equal(d.bytes(), doc) || !d.ok {
		return nil, false
	}
	c := &sidecar.Config{}
	c.Type = d.str()
	c.Model = d.str()
	c.TokenizerName = d.str()
	c.Streaming = d.str()
	c.LoadPattern = d.str()
	c.TargetConcurrency = d.int()
	c.TargetQPS = d.float()
	c.MinDurationMs = d.float()
	c.MaxDurationMs = d.float()
	c.NSamplesToIssue = d.int()
	c.Warmup.Enabled = d.bool()
	c.Warmup.Salt = d.bool()
	c.Warmup.Drain = d.bool()
	c.Warmup.NRequests = d.int()
	if n, isNil := d.list(); !isNil {
		c.Datasets = make([]sidecar.DatasetConfig, n)
		for i := range c.Datasets {
			ds := &c.Datasets[i]
			ds.Name, ds.Type, ds.Path = d.str(), d.str(), d.str()
			ds.Agentic = d.bool()
			ds.NumTrajectories = d.int()
		}
	}
	c.APIType = d.str()
	if n, isNil := d.list(); !isNil {
		c.Endpoints = make([]string, n)
		for i := range c.Endpoints {
			c.Endpoints[i] = d.str()
		}
	}
	if !d.ok || len(d.b) != 0 {
		return nil, false
	}
	return c, true
}

// recordWriter appends a record's fields.
type recordWriter struct{ b []byte }

func (e *recordWriter) bytes(p []byte) {
	e.b = binary.AppendUvarint(e.b, uint64(len(p)))
	e.b = append(e.b, p...)
}

func (e *recordWriter) str(s string) {
	e.b = binary.AppendUvarint(e.b, uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *recordWriter) int(v int) { e.b = binary.AppendVarint(e.b, int64(v)) }

func (e *recordWriter) float(v float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
}

func (e *recordWriter) bool(v bool) {
	var x byte
	if v {
		x = 1
	}
	e.b = append(e.b, x)
}

// list writes a list's length, nil apart from empty (0: nil, else n+1):
// the record gives back the Config parsed, nil lists and all.
func (e *recordWriter) list(isNil bool, n int) {
	if isNil {
		e.b = binary.AppendUvarint(e.b, 0)
		return
	}
	e.b = binary.AppendUvarint(e.b, uint64(n)+1)
}

// recordReader reads a record's fields; ok turns false at the first
// that is cut short or out of range, and every later read is zero.
type recordReader struct {
	b  []byte
	ok bool
}

func (d *recordReader) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *recordReader) fail() { d.ok, d.b = false, nil }

func (d *recordReader) bytes() []byte {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

func (d *recordReader) str() string { return string(d.bytes()) }

func (d *recordReader) int() int {
	v, n := binary.Varint(d.b)
	if n <= 0 || v != int64(int(v)) {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return int(v)
}

func (d *recordReader) float() float64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *recordReader) bool() bool {
	if len(d.b) < 1 || d.b[0] > 1 {
		d.fail()
		return false
	}
	v := d.b[0] == 1
	d.b = d.b[1:]
	return v
}

// list reads a list's length (recordWriter.list), bounded by the bytes
// left (each element takes one at least).
func (d *recordReader) list() (n int, isNil bool) {
	v := d.uvarint()
	if v == 0 {
		return 0, true
	}
	if v-1 > uint64(len(d.b)) {
		d.fail()
		return 0, true
	}
	return int(v - 1), false
}
