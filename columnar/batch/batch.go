package batch

import "fmt"

// Batch is columns of one schema, all of the same length: a record batch.
// It is also its own builder: New makes empty columns to append to, and
// Reset empties them for the next batch.
type Batch struct {
	schema *Schema
	cols   []*Column
}

// New is an empty batch of schema sc, a column per field.
func New(sc *Schema) *Batch {
	b := &Batch{schema: sc, cols: make([]*Column, sc.NumFields())}
	for i, f := range sc.Fields() {
		b.cols[i] = NewColumn(f.Type)
	}
	return b
}

// NewBatch is a batch of sc over cols (kept, not copied), which must
// match the fields' types and have the same length.
func NewBatch(sc *Schema, cols []*Column) (*Batch, error) {
	if len(cols) != sc.NumFields() {
		return nil, fmt.Errorf("batch: %d columns for %d fields", len(cols), sc.NumFields())
	}
	for i, c := range cols {
		if f := sc.Field(i); c.Type() != f.Type {
			return nil, fmt.Errorf("batch: column %q is %s, its field %s", f.Name, c.Type(), f.Type)
		}
		if c.Len() != cols[0].Len() {
			return nil, fmt.Errorf("batch: column %q has %d rows, column %q %d", sc.Field(i).Name, c.Len(), sc.Field(0).Name, cols[0].Len())
		}
	}
	return &Batch{schema: sc, cols: cols}, nil
}

// Schema is the batch's schema.
func (b *Batch) Schema() *Schema { return b.schema }

// Column is column i.
func (b *Batch) Column(i int) *Column { return b.cols[i] }

// Columns are the columns in field order.
func (b *Batch) Columns() []*Column { return b.cols }

// NumCols is the number of columns.
func (b *Batch) NumCols() int { return len(b.cols) }

// NumRows is the number of rows (0 for a batch of no columns).
func (b *Batch) NumRows() int64 {
	if len(b.cols) == 0 {
		return 0
	}
	return int64(b.cols[0].Len())
}

// Reset empties every column, keeping their memory.
func (b *Batch) Reset() {
	for _, c := range b.cols {
		c.Reset()
	}
}
