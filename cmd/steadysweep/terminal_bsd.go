//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

// termiosReadable asks the terminal driver for fd's attributes
// (TIOCGETA), which only a terminal answers.
func termiosReadable(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, unix.TIOCGETA)
	return err == nil
}
