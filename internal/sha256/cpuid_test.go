//go:build amd64

package sha256

import (
	"testing"

	features "github.com/steadysweep/cpuid"
	"golang.org/x/sys/cpu"
)

// TestCPUIDMatchesXSysCPU holds github.com/steadysweep/cpuid (what
// columnar/scan and the patched compress and xxh3 read;
// internal/third_party/cpuid) to golang.org/x/sys/cpu, whose detection it
// copies, on this machine; and this package's choice (detect, its own
// CPUID: a leaf package imports the standard library only) to cpuid's
// features.
func TestCPUIDMatchesXSysCPU(t *testing.T) {
	f := features.X86()
	for _, c := range []struct {
		name      string
		got, want bool
	}{
		{"SSE2", f.HasSSE2, cpu.X86.HasSSE2}, {"SSSE3", f.HasSSSE3, cpu.X86.HasSSSE3},
		{"SSE41", f.HasSSE41, cpu.X86.HasSSE41}, {"POPCNT", f.HasPOPCNT, cpu.X86.HasPOPCNT},
		{"AVX", f.HasAVX, cpu.X86.HasAVX}, {"AVX2", f.HasAVX2, cpu.X86.HasAVX2},
		{"AVX512F", f.HasAVX512F, cpu.X86.HasAVX512F}, {"BMI1", f.HasBMI1, cpu.X86.HasBMI1},
		{"BMI2", f.HasBMI2, cpu.X86.HasBMI2},
	} {
		if c.got != c.want {
			t.Errorf("%s: cpuid %v, x/sys/cpu %v", c.name, c.got, c.want)
		}
	}
	want := implGeneric
	switch {
	case f.HasAVX && f.HasSHA && f.HasSSE41 && f.HasSSSE3:
		want = implSHANI
	case f.HasAVX && f.HasAVX2 && f.HasBMI2:
		want = implAVX2
	}
	if got := detect(); got != want {
		t.Errorf("detect() = %s, cpuid's features give %s", implName(got), implName(want))
	}
}
