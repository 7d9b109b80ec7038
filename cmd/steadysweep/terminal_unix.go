//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

// termiosReadable asks the terminal driver for fd's attributes
// (ioctlGetTermios: TCGETS, TIOCGETA on the BSDs), which only a terminal
// answers.
func termiosReadable(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	return err == nil
}

// terminalColumns is the width of the terminal on fd (TIOCGWINSZ), 0 when
// it does not say.
func terminalColumns(fd int) int {
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
