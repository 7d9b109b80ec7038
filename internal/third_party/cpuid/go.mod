module github.com/steadysweep/cpuid

go 1.22
