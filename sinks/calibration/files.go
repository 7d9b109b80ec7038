package calibration

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

// WriteFile writes path through write (buffered), creating its
// directory, with the module's atomic writer (internal/atomicfile): the
// calibration's outputs (WriteMarkdown, WriteHTML) go to files through it.
func WriteFile(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create directory of %s: %w", path, err)
	}
	err := atomicfile.WriteWith(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
