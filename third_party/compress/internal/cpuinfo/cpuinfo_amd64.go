//go:build amd64 && !noasm && gc

package cpuinfo

import "golang.org/x/sys/cpu"

// steadysweep: BMI1 and BMI2 come from golang.org/x/sys/cpu, which the
// program links anyway and whose init has already run CPUID, instead of
// upstream's own CPUID in assembly (cpuinfo_amd64.s, left out): each
// CPUID traps to the hypervisor on a virtual machine, at every process
// start. Same leaf (7) and bits (EBX 3 and 8).
func init() {
	hasBMI1, hasBMI2 = cpu.X86.HasBMI1, cpu.X86.HasBMI2
}
