package sweep

import (
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/steadysweep/steadysweep/internal/sha256"
	"github.com/steadysweep/steadysweep/sinks"
)

// A run's provenance is its events file's size, mtime and SHA-256. The
// hash is not read up front: the loader computes it while it decodes
// (columnar hashes as it reads) or takes it from the column cache, which
// recorded it when it decoded the file, so a warm sweep never reads an
// events file. The file is read for its hash alone only when a resume
// must compare it with rows already written, or a loader gave none.

// statProvenance stats the events file, without reading it.
func statProvenance(path string) (sinks.Provenance, error) {
	prov := sinks.Provenance{EventsPath: path}
	if err := safeopen.CheckRegular(path); err != nil { // a FIFO or a device is never opened
		return prov, fmt.Errorf("open events file: %w", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return prov, fmt.Errorf("open events file: %w", err)
	}
	prov.EventsSize, prov.EventsMtimeNs = st.Size(), st.ModTime().UnixNano()
	return prov, nil
}

// hashEvents reads the events file into prov.EventsSHA256 (the bytes as
// stored: compressed logs hash compressed).
func hashEvents(prov *sinks.Provenance) error {
	f, err := safeopen.Open(prov.EventsPath)
	if err != nil {
		return fmt.Errorf("open events file: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("hash events file: %w", err)
	}
	prov.EventsSHA256 = hex.EncodeToString(h.Sum(nil))
	return nil
}

// fileProvenance stats and hashes the events file.
func fileProvenance(path string) (sinks.Provenance, error) {
	prov, err := statProvenance(path)
	if err != nil {
		return prov, err
	}
	return prov, hashEvents(&prov)
}

// resumedRuns is the set of run ids with rows or series already written
// (whose done keys carry the events hash).
type resumedRuns struct {
	once sync.Once
	ids  map[string]struct{}
}

func (e *engine) hasWritten(runID string) bool {
	e.resumed.once.Do(func() {
		e.resumed.ids = make(map[string]struct{})
		for k := range e.done {
			e.resumed.ids[k.RunID] = struct{}{}
		}
		for k := range e.seriesDone {
			e.resumed.ids[k.RunID] = struct{}{}
		}
	})
	_, ok := e.resumed.ids[runID]
	return ok
}

// provenance is the run's provenance before it is loaded: stat only,
// plus the hash when a resume needs it to skip what is done.
func (e *engine) provenance(path, runID string) (sinks.Provenance, error) {
	prov, err := statProvenance(path)
	if err == nil && e.hasWritten(runID) {
		err = hashEvents(&prov)
	}
	return prov, err
}

// completeProvenance fills the hash after the load: the loader's, else
// (a loader that does not hash, or a failed load) read from the file.
func completeProvenance(prov *sinks.Provenance, run *LoadedRun) {
	if prov.EventsSHA256 != "" {
		return
	}
	if run != nil && run.EventsSHA256 != "" {
		prov.EventsSHA256 = run.EventsSHA256
		return
	}
	hashEvents(prov) // unreadable: the hash stays empty, as before
}
