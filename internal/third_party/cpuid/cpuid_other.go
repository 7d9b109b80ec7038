//go:build !amd64 || !gc

package cpuid

// detect reports no x86 feature off amd64 (the callers' assembly is
// amd64's).
func detect() Features { return Features{} }
