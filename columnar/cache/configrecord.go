package cache

import (
	"bytes"

	"github.com/steadysweep/steadysweep/columnar/sidecar"
)

// A config memo's record (ConfigMemo) is binary, every field of
// sidecar.Config in a fixed order, each as fieldWriter writes it (the
// codec the summary form uses too, fieldcodec.go), a list as its size and
// its elements. It starts with configMagic and the memo version, and must
// be consumed exactly. (As JSON through
// encoding/json its reflection cost a warm analyze more pages than the
// record saved.) TestConfigRecordEveryField fails on a field of Config
// this codec does not carry.

// configMagic starts every record.
const configMagic = "SSWCONF\n"

// encodeConfigRecord is the record of doc read as c.
func encodeConfigRecord(doc []byte, c *sidecar.Config) []byte {
	var e fieldWriter
	e.b = append(make([]byte, 0, 2*len(doc)+256), configMagic...)
	e.int(int64(sidecar.ConfigMemoVersion))
	e.bytes(doc)
	e.str(c.Type)
	e.str(c.Model)
	e.str(c.TokenizerName)
	e.str(c.Streaming)
	e.str(c.LoadPattern)
	e.int(int64(c.TargetConcurrency))
	e.float(c.TargetQPS)
	e.float(c.MinDurationMs)
	e.float(c.MaxDurationMs)
	e.int(int64(c.NSamplesToIssue))
	e.bool(c.Warmup.Enabled)
	e.bool(c.Warmup.Salt)
	e.bool(c.Warmup.Drain)
	e.int(int64(c.Warmup.NRequests))
	e.size(len(c.Datasets), c.Datasets == nil)
	for _, d := range c.Datasets {
		e.str(d.Name)
		e.str(d.Type)
		e.str(d.Path)
		e.bool(d.Agentic)
		e.int(int64(d.NumTrajectories))
	}
	e.str(c.APIType)
	e.size(len(c.Endpoints), c.Endpoints == nil)
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
	d := fieldReader{b: rest, name: "config record"}
	if d.int() != int64(sidecar.ConfigMemoVersion) || !bytes.Equal(d.bytes(), doc) || d.err != nil {
		return nil, false
	}
	c := &sidecar.Config{}
	c.Type = d.str()
	c.Model = d.str()
	c.TokenizerName = d.str()
	c.Streaming = d.str()
	c.LoadPattern = d.str()
	c.TargetConcurrency = int(d.int())
	c.TargetQPS = d.float()
	c.MinDurationMs = d.float()
	c.MaxDurationMs = d.float()
	c.NSamplesToIssue = int(d.int())
	c.Warmup.Enabled = d.bool()
	c.Warmup.Salt = d.bool()
	c.Warmup.Drain = d.bool()
	c.Warmup.NRequests = int(d.int())
	if n, ok := d.size(); ok {
		c.Datasets = make([]sidecar.DatasetConfig, n)
		for i := range c.Datasets {
			ds := &c.Datasets[i]
			ds.Name, ds.Type, ds.Path = d.str(), d.str(), d.str()
			ds.Agentic = d.bool()
			ds.NumTrajectories = int(d.int())
		}
	}
	c.APIType = d.str()
	if n, ok := d.size(); ok {
		c.Endpoints = make([]string, n)
		for i := range c.Endpoints {
			c.Endpoints[i] = d.str()
		}
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, false
	}
	return c, true
}
