// Package samplesparquet exports ingested runs' per-sample columns
// (columnar.Schema with leading run_id and run_rel columns) to Parquet. It is apart from
// columnar so that reading runs does not link the Parquet writer: only
// commands that export import it.
package samplesparquet

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/batch"
	"github.com/steadysweep/steadysweep/columnar/parquetio"
)

// NamedTable is a table with the run's identity written in Write's
// leading columns: RunID and RunRel as a sweep's rows hold them
// (corpora.RunRef), so samples join the rows on run_id.
type NamedTable struct {
	RunID, RunRel string
	Table         *columnar.Table
}

// Schema returns columnar.Schema with leading "run_id" and "run_rel"
// (utf8) columns. Built on first use, not at package initialisation,
// which every steadysweep process ran (issue 32).
func Schema() *batch.Schema {
	schema.once.Do(func() {
		schema.s = batch.NewSchema(append([]batch.Field{
			{Name: "run_id", Type: batch.String},
			{Name: "run_rel", Type: batch.String},
		}, tableFields()...), nil)
	})
	return schema.s
}

var schema struct {
	once sync.Once
	s    *batch.Schema
}

// Write writes the tables to w as one zstd-compressed Parquet file, one
// row group per table, with Schema. It does not close w.
func Write(w io.Writer, tables []NamedTable) error {
	props := &parquetio.Options{Compression: parquetio.Zstd}
	fw, err := parquetio.NewWriter(w, Schema(), props)
	if err != nil {
		return fmt.Errorf("parquet writer: %w", err)
	}
	for _, nt := range tables {
		if err := writeNamed(fw, nt); err != nil {
			return errors.Join(fmt.Errorf("parquet %s: %w", nt.RunRel, err), fw.Close())
		}
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("parquet close: %w", err)
	}
	return nil
}

func writeNamed(fw *parquetio.Writer, nt NamedTable) error {
	cols := tableColumns(nt.Table)
	n := 0
	if len(cols) > 0 {
		n = cols[0].Len()
	}
	id, rel := constantColumn(nt.RunID, n), constantColumn(nt.RunRel, n)
	out, err := batch.NewBatch(Schema(), append([]*batch.Column{id, rel}, cols...))
	if err != nil {
		return err
	}
	return fw.Write(out)
}

// constantColumn is a string column holding s n times.
func constantColumn(s string, n int) *batch.Column {
	c := batch.NewColumn(batch.String)
	for range n {
		c.AppendString(s)
	}
	return c
}
