module github.com/zeebo/xxh3

go 1.22

require github.com/steadysweep/cpuid v0.0.0

// steadysweep: the CPU features come from internal/third_party/cpuid
// (steadysweep's go.mod replaces the module; this line serves a build of
// this directory alone).
replace github.com/steadysweep/cpuid => ../cpuid
