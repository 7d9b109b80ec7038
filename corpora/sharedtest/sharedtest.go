// Package sharedtest locates the project's shared material for tests: the
// directory shared/ beside the module root (../shared from the repository),
// which holds the parity corpus, the statistics vectors and the tokenizers.
// Tests that need it skip, saying so, when it is absent.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// moduleRoot walks up from the working directory to the module root, the
// directory holding go.mod; "" when there is none.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// RepoRoot returns the module root (the directory holding go.mod above
// the test's directory), failing the test when there is none.
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	root := moduleRoot()
	if root == "" {
		tb.Fatal("no go.mod above the test directory")
	}
	return root
}

// Locate returns the shared directory, or "" when there is none: it looks
// beside the module root.
func Locate() string {
	dir := moduleRoot()
	if dir == "" {
		return ""
	}
	shared := filepath.Join(dir, "..", "shared")
	if fi, err := os.Stat(shared); err != nil || !fi.IsDir() {
		return ""
	}
	return shared
}

// Dir returns the shared directory, skipping the test with a message when
// it, or the path need inside it (e.g. "parity/runs"), is absent.
func Dir(tb testing.TB, need string) string {
	tb.Helper()
	shared := Locate()
	if shared == "" {
		tb.Skip("../shared not present: the shared material beside the repository is needed for this test")
	}
	if _, err := os.Stat(filepath.Join(shared, need)); err != nil {
		tb.Skipf("../shared not present: %v", err)
	}
	return shared
}
