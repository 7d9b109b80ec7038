package columnar

import "golang.org/x/sys/cpu"

// haveWordsSSE2 selects the assembly word loop (SSE2 is baseline on
// amd64; POPCNT nearly so, and checked).
var haveWordsSSE2 = cpu.X86.HasPOPCNT

// wordsSSE2 is swarWords' loop 16 bytes a step in SSE2 (words_amd64.s);
// prevSpace and prevSpaceOut are 1 when the byte before is a space.
//
//go:noescape
func wordsSSE2(b []byte, j int, prevSpace uint64) (next int, words int, prevSpaceOut uint64)
