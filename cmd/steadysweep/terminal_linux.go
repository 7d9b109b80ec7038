package main

import "golang.org/x/sys/unix"

// termiosReadable asks the terminal driver for fd's attributes (TCGETS),
// which only a terminal answers.
func termiosReadable(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	return err == nil
}
