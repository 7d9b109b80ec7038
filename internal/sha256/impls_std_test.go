//go:build !amd64 || purego

package sha256

import "testing"

const maxAsmSize = 64 << 10

func runnableImpls() []uint32     { return []uint32{0} }
func implName(uint32) string      { return "crypto/sha256" }
func withImpl(*testing.T, uint32) {}
