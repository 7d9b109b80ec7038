package contract

import (
	"encoding/hex"
	"testing"
)

// TestContentKeyVector: the content key is XXH3-128 in its canonical
// (big-endian) form: of the empty input 99aa06d3014798d8 6001c324468d497f,
// the reference implementation's value (xxhash's XXH3_128bits of "" with
// the default secret: high64 0x99AA06D3014798D8, low64 0x6001C324468D497F).
func TestContentKeyVector(t *testing.T) {
	if got := hex.EncodeToString(NewContentKey().Sum(nil)); got != "99aa06d3014798d86001c324468d497f" {
		t.Errorf("content key of \"\" = %s", got)
	}
}
