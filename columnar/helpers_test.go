package columnar

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// sharedDir returns ../shared relative to the module root, skipping the
// test when it is absent.
func sharedDir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t, "parity/runs")
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
