package resultjson

import (
	"math"

	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// Node is one value of a record's JSON tree in a typed shape, for a reader
// that lists the tree as it is written — every key under its own name —
// rather than reading values by name (the run page's details, which show
// a key added to the JSON without a change of theirs). A value read by
// name is read from the Record's fields instead.
type Node struct {
	Kind Kind
	// Num is a number's value (integers too; NaN kept).
	Num float64
	// Str is a string's value.
	Str string
	// Bool is a bool's value.
	Bool bool
	// Fields are an object's members in order.
	Fields []Member
	// Items are a list's elements.
	Items []Node
}

// Member is one key of an object and its value.
type Member struct {
	Key   string
	Value Node
}

// Kind is the JSON type of a Node.
type Kind int

const (
	Null Kind = iota
	Number
	String
	Bool
	Object
	List
)

// Field is the value of key in an object node (ok false when n is not an
// object or has no such key).
func (n Node) Field(key string) (Node, bool) {
	for _, m := range n.Fields {
		if m.Key == key {
			return m.Value, true
		}
	}
	return Node{}, false
}

// Nodes are the top-level keys of a record's JSON tree (Object) as
// nodes, each converted only when keep says so (the drift table's rolling
// cells are nine tenths of the tree).
func Nodes(tree pyjson.Object, keep func(key string) bool) []Member {
	var out []Member
	for _, f := range tree {
		if keep(f.Key) {
			out = append(out, Member{Key: f.Key, Value: nodeOf(f.Value)})
		}
	}
	return out
}

// nodeOf converts a value of a pyjson tree; a value pyjson writes as null
// is a Null node.
func nodeOf(v any) Node {
	switch x := v.(type) {
	case pyjson.Object:
		n := Node{Kind: Object, Fields: make([]Member, len(x))}
		for i, f := range x {
			n.Fields[i] = Member{Key: f.Key, Value: nodeOf(f.Value)}
		}
		return n
	case []any:
		return listOf(x)
	case []int:
		return listOf(x)
	case []float64:
		return listOf(x)
	case []string:
		return listOf(x)
	case int:
		return Node{Kind: Number, Num: float64(x)}
	case int64:
		return Node{Kind: Number, Num: float64(x)}
	case float64:
		return Node{Kind: Number, Num: x}
	case string:
		return Node{Kind: String, Str: x}
	case bool:
		return Node{Kind: Bool, Bool: x}
	case pyjson.Marshaler:
		return nodeOf(x.PyJSON())
	}
	return Node{Kind: Null, Num: math.NaN()}
}

func listOf[T any](xs []T) Node {
	n := Node{Kind: List, Items: make([]Node, len(xs))}
	for i, x := range xs {
		n.Items[i] = nodeOf(x)
	}
	return n
}
