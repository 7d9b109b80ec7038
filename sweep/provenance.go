package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/steadysweep/steadysweep/sinks"
)

// fileProvenance stats and hashes the events file. The hash covers the
// bytes as stored (compressed logs hash compressed).
func fileProvenance(path string) (sinks.Provenance, error) {
	prov := sinks.Provenance{EventsPath: path}
	f, err := os.Open(path)
	if err != nil {
		return prov, fmt.Errorf("open events file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return prov, fmt.Errorf("stat events file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return prov, errors.New("events file is not a regular file")
	}
	prov.EventsSize, prov.EventsMtimeNs = st.Size(), st.ModTime().UnixNano()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return prov, fmt.Errorf("hash events file: %w", err)
	}
	prov.EventsSHA256 = hex.EncodeToString(h.Sum(nil))
	return prov, nil
}
