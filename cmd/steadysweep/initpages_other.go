//go:build !linux

package main

// releaseInitPages is a no-op where /proc/self/maps is not available.
func releaseInitPages() {}
