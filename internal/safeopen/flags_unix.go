//go:build unix

package safeopen

import "syscall"

// openFlags make an open that cannot block on a FIFO and leaks no
// descriptor into child processes.
const openFlags = syscall.O_NONBLOCK | syscall.O_CLOEXEC

// noFollow makes an open refuse a symbolic link in the last component.
const noFollow = syscall.O_NOFOLLOW
