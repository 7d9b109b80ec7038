//go:build amd64 && !purego

package sha256

import "testing"

// runnableImpls are the block implementations this CPU runs: the
// generic one, and those up to the one detect chooses.
func runnableImpls() []uint32 {
	out := []uint32{implGeneric}
	switch detect() {
	case implSHANI:
		// SHA-NI CPUs (all of them so far) have AVX2 and BMI2 too; the
		// AVX2 path runs only if they do.
		out = append(out, implSHANI)
		if avx2Runs() {
			out = append(out, implAVX2)
		}
	case implAVX2:
		out = append(out, implAVX2)
	}
	return out
}

// avx2Runs is detect's AVX2 condition alone.
func avx2Runs() bool {
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&(1<<27) == 0 || ecx1&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0 && ebx7&(1<<8) != 0
}

func implName(m uint32) string {
	return [...]string{"unknown", "generic", "AVX2", "SHA-NI"}[m]
}

// withImpl makes block use m until the test ends.
func withImpl(t *testing.T, m uint32) {
	old := impl.Load()
	impl.Store(m)
	t.Cleanup(func() { impl.Store(old) })
}
