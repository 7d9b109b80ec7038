package main

import (
	"io"

	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

// writeOutput writes an output FILE with fill: "-" is stdout, anything
// else is written atomically (internal/atomicfile: never through a symbolic
// link, never over a non-regular file).
func writeOutput(path string, stdout io.Writer, fill func(io.Writer) error) error {
	if path == "-" {
		return fill(stdout)
	}
	return atomicfile.WriteWith(path, fill)
}
