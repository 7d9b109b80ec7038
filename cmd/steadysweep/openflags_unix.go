//go:build unix

package main

import "syscall"

// noFollowNonblock refuses a symbolic link at the name opened and opens a
// FIFO without blocking (openDebugLog).
const noFollowNonblock = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
