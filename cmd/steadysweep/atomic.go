package main

import (
	"io"
	"os"
	"path/filepath"
)

// writeWith writes a file through fill into a temporary name beside path
// and renames it into place only when fill succeeded, so a reader never
// sees a half-written file and a failure leaves nothing under the final
// name.
func writeWith(path string, fill func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := fill(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// writeFileAtomic writes data to path atomically (see writeWith).
func writeFileAtomic(path string, data []byte) error {
	return writeWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
