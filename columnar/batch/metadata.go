package batch

// Metadata is an ordered list of key-value pairs, a field's or a
// schema's (Arrow's custom_metadata): the order is kept as written, since
// the files store it in that order.
type Metadata struct {
	keys, values []string
}

// NewMetadata pairs keys with values (of the same length; the slices are
// kept, not copied).
func NewMetadata(keys, values []string) Metadata {
	if len(keys) != len(values) {
		panic("batch: metadata of unequal key and value counts")
	}
	return Metadata{keys: keys, values: values}
}

// Len is the number of pairs.
func (m Metadata) Len() int { return len(m.keys) }

// Keys are the keys in order.
func (m Metadata) Keys() []string { return m.keys }

// Values are the values in the keys' order.
func (m Metadata) Values() []string { return m.values }

// FindKey is the index of key, −1 when absent.
func (m Metadata) FindKey(key string) int {
	for i, k := range m.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// GetValue is the value of key, if present.
func (m Metadata) GetValue(key string) (string, bool) {
	if i := m.FindKey(key); i >= 0 {
		return m.values[i], true
	}
	return "", false
}

// Equal reports whether m and o hold the same pairs in the same order.
func (m Metadata) Equal(o Metadata) bool {
	if m.Len() != o.Len() {
		return false
	}
	for i := range m.keys {
		if m.keys[i] != o.keys[i] || m.values[i] != o.values[i] {
			return false
		}
	}
	return true
}
