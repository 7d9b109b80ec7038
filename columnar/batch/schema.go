package batch

import (
	"fmt"
	"strings"
)

// Field is a column's name, type, nullability and metadata.
type Field struct {
	Name     string
	Type     Type
	Nullable bool
	Metadata Metadata
}

// HasMetadata reports whether the field has any metadata.
func (f Field) HasMetadata() bool { return f.Metadata.Len() > 0 }

// Equal reports whether f and o are the same field, metadata included.
func (f Field) Equal(o Field) bool {
	return f.Name == o.Name && f.Type == o.Type && f.Nullable == o.Nullable && f.Metadata.Equal(o.Metadata)
}

// String is the field as Arrow prints it ("name: type", "nullable"
// appended when it is).
func (f Field) String() string {
	s := f.Name + ": type=" + f.Type.String()
	if f.Nullable {
		s += ", nullable"
	}
	return s
}

// Schema is the fields of a batch, in column order, and the schema's
// metadata.
type Schema struct {
	fields []Field
	meta   Metadata
}

// NewSchema makes a schema of fields (kept, not copied) and md (nil:
// none).
func NewSchema(fields []Field, md *Metadata) *Schema {
	s := &Schema{fields: fields}
	if md != nil {
		s.meta = *md
	}
	return s
}

// Fields are the fields in column order.
func (s *Schema) Fields() []Field { return s.fields }

// Field is field i.
func (s *Schema) Field(i int) Field { return s.fields[i] }

// NumFields is the number of fields.
func (s *Schema) NumFields() int { return len(s.fields) }

// Metadata is the schema's metadata.
func (s *Schema) Metadata() Metadata { return s.meta }

// FieldIndex is the index of the first field called name, −1 when none
// is.
func (s *Schema) FieldIndex(name string) int {
	for i, f := range s.fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Equal reports whether s and o have equal fields and metadata.
func (s *Schema) Equal(o *Schema) bool {
	if len(s.fields) != len(o.fields) || !s.meta.Equal(o.meta) {
		return false
	}
	for i, f := range s.fields {
		if !f.Equal(o.fields[i]) {
			return false
		}
	}
	return true
}

// String lists the fields, one a line.
func (s *Schema) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "schema: %d fields", len(s.fields))
	for _, f := range s.fields {
		b.WriteString("\n  - " + f.String())
	}
	return b.String()
}
