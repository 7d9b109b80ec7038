//go:build amd64 && !noasm && gc

package cpuinfo

import "github.com/steadysweep/cpuid"

// steadysweep: BMI1 and BMI2 come from github.com/steadysweep/cpuid
// (internal/third_party/cpuid: x/sys/cpu's detection, run on its first
// use), read at each call, instead of being set by an init() from
// upstream's own CPUID in assembly (cpuinfo_amd64.s, left out): each
// CPUID traps to the hypervisor on a virtual machine, and an init() is a
// page of code touched at every process start. Same CPUID leaf (7) and
// bits (EBX 3 and 8).
func x86BMI1() bool { return cpuid.X86().HasBMI1 }
func x86BMI2() bool { return cpuid.X86().HasBMI2 }
