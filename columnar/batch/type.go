package batch

// Type is a column's value type.
type Type uint8

// The column types: Arrow's bool, int32, int64, float64 and utf8.
const (
	Bool Type = iota + 1
	Int32
	Int64
	Float64
	String
)

// String is the type's Arrow name ("bool", "int32", "int64", "float64",
// "utf8"), as error messages and the stored Arrow schema name them.
func (t Type) String() string {
	switch t {
	case Bool:
		return "bool"
	case Int32:
		return "int32"
	case Int64:
		return "int64"
	case Float64:
		return "float64"
	case String:
		return "utf8"
	}
	return "invalid"
}
