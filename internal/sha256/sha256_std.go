//go:build !amd64 || purego

package sha256

import (
	"crypto/sha256"
	"hash"
)

// Size and BlockSize are crypto/sha256's.
const (
	Size      = sha256.Size
	BlockSize = sha256.BlockSize
)

// New is crypto/sha256.New (the copy is amd64's only).
func New() hash.Hash { return sha256.New() }

// Sum256 is crypto/sha256.Sum256.
func Sum256(data []byte) [Size]byte { return sha256.Sum256(data) }
