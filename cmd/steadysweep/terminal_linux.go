package main

import "golang.org/x/sys/unix"

// ioctlGetTermios is the request that reads a terminal's attributes.
const ioctlGetTermios = unix.TCGETS
