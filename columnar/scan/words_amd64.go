package scan

import "github.com/steadysweep/cpuid"

// haveWordsSSE2 selects the assembly word loop (SSE2 is baseline on
// amd64; POPCNT nearly so, and checked); haveWordsAVX2 the wider one
// that also takes non-ASCII bytes and two-byte escapes (HasAVX2
// includes the OS's support for the YMM registers). Variables so that
// tests can force the fallbacks. The features come from
// github.com/steadysweep/cpuid (golang.org/x/sys/cpu's detection without
// its init, issue 32).
var (
	HaveWordsSSE2 = cpuid.X86().HasPOPCNT
	HaveWordsAVX2 = cpuid.X86().HasAVX2 && cpuid.X86().HasPOPCNT
)

// wordsSSE2 is swarWords' loop 16 bytes a step in SSE2 (words_amd64.s);
// prevSpace and prevSpaceOut are 1 when the byte before is a space.
//
//go:noescape
func wordsSSE2(b []byte, j int, prevSpace uint64) (next int, words int, prevSpaceOut uint64)

// wordsAVX2 is scanWords' inner loop 32 bytes a step in AVX2
// (words_amd64.s): it needs 3 <= j (it reads the 3 bytes before) and
// j+32 <= len(b), and stops only at a byte the caller must take one at a
// time ('"', a control byte, the lead byte of a possible Unicode space
// that is not a whole character, a \u or bad escape) or at len(b); with
// chunks non-zero it takes the separator `","` between two strings of a
// chunk list in place. dropped is the bytes it took that decode to nothing
// (one per two-byte escape, three per separator); bad is non-zero when the
// bytes it took, or the one it stopped at, are not valid UTF-8 there,
// unless trusted is non-zero: the caller knows b's UTF-8 already (the line
// split checked it) and the check is left out.
//
//go:noescape
func wordsAVX2(b []byte, j int, prevSpace, chunks, trusted uint64) (next int, words int, prevSpaceOut uint64, dropped int, bad uint64)
