module github.com/klauspost/compress

go 1.25

require github.com/steadysweep/cpuid v0.0.0

// steadysweep: the CPU features come from internal/third_party/cpuid
// (steadysweep's go.mod replaces the module; this line serves a build of
// this directory alone).
replace github.com/steadysweep/cpuid => ../cpuid
