// Package padrand is the source of the random bytes zstd and s2 write
// into padding (skippable) frames.
//
// steadysweep: upstream reads them from crypto/rand.Reader; linking
// crypto/rand put its package initialisations (crypto/internal/fips140's
// DRBG, AES, GCM, HMAC, SHA-3, math/big) into every steadysweep process.
// Padding bytes are skipped by every decoder and only have to be
// incompressible, not unpredictable, so the runtime's ChaCha8 generator
// (math/rand/v2, seeded by the runtime from the OS) serves.
package padrand

import (
	"encoding/binary"
	"math/rand/v2"
)

// Reader fills any slice with random bytes and never fails.
var Reader reader

type reader struct{}

// Read fills p with random bytes; n is always len(p) and err nil.
func (reader) Read(p []byte) (int, error) {
	n := len(p)
	for len(p) >= 8 {
		binary.LittleEndian.PutUint64(p, rand.Uint64())
		p = p[8:]
	}
	if len(p) > 0 {
		var tail [8]byte
		binary.LittleEndian.PutUint64(tail[:], rand.Uint64())
		copy(p, tail[:])
	}
	return n, nil
}
