//go:build !unix

package main

// noFollowNonblock has no equivalent here: openDebugLog's regular-file
// check after the open is what refuses other objects.
const noFollowNonblock = 0
