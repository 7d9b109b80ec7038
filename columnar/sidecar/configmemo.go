package sidecar

// ConfigMemo remembers what config.yaml documents read as (their Config),
// by their bytes, so that a run read again does not parse its YAML again:
// a warm analyze takes its columns from the cache but reads the sidecars
// afresh, and the YAML parse was the largest part of that (~700
// allocations, 46 kB of fresh heap for a 1.1 kB config, ~20 of the ~580
// page faults of the 185 MB streamed log's warm analyze). The file is
// still read every time, so an edited config is a new document, parsed.
//
// Parsed returns the Config of a document of exactly these bytes that
// Remember recorded (a new value each time: the caller may change it);
// Remember records c as what doc reads as. Both are best effort: a memo
// that cannot be read or written misses.
type ConfigMemo interface {
	Parsed(doc []byte) (*Config, bool)
	Remember(doc []byte, c *Config)
}

// ConfigMemoVersion names how parseConfig reads a document into a
// Config: a memo keeps it with each record and uses only the records of
// this version. It changes when that reading does (a new field, another
// rule), as the cache's key version does for the columns.
const ConfigMemoVersion = 1
