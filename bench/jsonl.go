package bench

import (
	"bufio"
	"encoding/json"
	"io"
)

// ReadJSONL decodes r, one JSON value of type T a line (lines up to
// maxLine bytes), in order.
func ReadJSONL[T any](r io.Reader, maxLine int) ([]T, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), maxLine)
	var out []T
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, sc.Err()
}
