//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package main

// termiosReadable is false where steadysweep has no isatty: no colour and
// no live progress line, as on a pipe.
func termiosReadable(int) bool { return false }

// terminalColumns is 0 (unknown) where steadysweep has no isatty.
func terminalColumns(int) int { return 0 }
