package main

import (
	"io"
	"os"
)

// colorWanted reports whether w is a terminal and NO_COLOR is unset
// (https://no-color.org). Files, pipes and /dev/null never get colour.
func colorWanted(w io.Writer) bool {
	if _, ok := os.LookupEnv("NO_COLOR"); ok {
		return false
	}
	return isTerminalWriter(w)
}

// isTerminalWriter reports whether w is an *os.File open on a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isTerminal(f)
}

// isTerminal reports whether f is a terminal: whether the terminal driver
// answers a read of its attributes (isatty). Being a character device is
// not enough: /dev/null is one.
func isTerminal(f *os.File) bool {
	return f != nil && termiosReadable(int(f.Fd()))
}

// reportWidth is the width to lay the text report out for on w: the
// terminal's columns when w is a terminal that says (sinks keeps at least
// 80), else 0 for the report's default 100 (files, pipes).
func reportWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		return terminalColumns(int(f.Fd()))
	}
	return 0
}
