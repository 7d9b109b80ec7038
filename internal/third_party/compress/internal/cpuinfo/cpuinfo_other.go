//go:build !amd64 || noasm || !gc

package cpuinfo

// steadysweep: upstream left hasBMI1 and hasBMI2 false here.
func x86BMI1() bool { return false }
func x86BMI2() bool { return false }
