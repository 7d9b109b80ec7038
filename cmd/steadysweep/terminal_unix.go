//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"syscall"
	"unsafe"
)

// The two ioctls are made through package syscall, not
// golang.org/x/sys/unix, whose package init (an mremap mapper and its
// map) every process ran (issue 32).

// termiosReadable asks the terminal driver for fd's attributes
// (ioctlGetTermios: TCGETS, TIOCGETA on the BSDs), which only a terminal
// answers.
func termiosReadable(fd int) bool {
	var t syscall.Termios
	return ioctl(fd, ioctlGetTermios, unsafe.Pointer(&t)) == nil
}

// winsize is the kernel's struct winsize (TIOCGWINSZ), the same on every
// system here.
type winsize struct {
	Row, Col, Xpixel, Ypixel uint16
}

// terminalColumns is the width of the terminal on fd (TIOCGWINSZ), 0 when
// it does not say.
func terminalColumns(fd int) int {
	var ws winsize
	if ioctl(fd, syscall.TIOCGWINSZ, unsafe.Pointer(&ws)) != nil {
		return 0
	}
	return int(ws.Col)
}

func ioctl(fd int, req uint, arg unsafe.Pointer) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), uintptr(req), uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}
