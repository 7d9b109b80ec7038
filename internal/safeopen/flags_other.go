//go:build !unix

package safeopen

// openFlags: platforms without O_NONBLOCK rely on the stat checks alone.
const openFlags = 0

// noFollow: OpenNoFollow relies on its Lstat alone.
const noFollow = 0
