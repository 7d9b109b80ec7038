// Package cpuinfo gives runtime info about the current CPU.
//
// This is a very limited module meant for use internally
// in this project. For more versatile solution check
// https://github.com/klauspost/cpuid.
package cpuinfo

// HasBMI1 checks whether an x86 CPU supports the BMI1 extension.
func HasBMI1() bool {
	return x86BMI1()
}

// HasBMI2 checks whether an x86 CPU supports the BMI2 extension.
func HasBMI2() bool {
	return !bmi2Disabled && x86BMI2()
}

// DisableBMI2 will disable BMI2, for testing purposes.
// Call returned function to restore previous state.
func DisableBMI2() func() {
	old := bmi2Disabled
	bmi2Disabled = true
	return func() {
		bmi2Disabled = old
	}
}

// HasBMI checks whether an x86 CPU supports both BMI1 and BMI2 extensions.
func HasBMI() bool {
	return HasBMI1() && HasBMI2()
}

// steadysweep: no package state set by init(); the features are read
// from github.com/steadysweep/cpuid at each call (cpuinfo_amd64.go), and
// DisableBMI2 sets bmi2Disabled.
var bmi2Disabled bool
