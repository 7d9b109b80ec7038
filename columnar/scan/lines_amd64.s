#include "textflag.h"

// lineBytes are the line ends, broadcast from memory (as in wordsAVX2,
// where broadcasting from general registers measured slower).
DATA lineBytes<>+0(SB)/8, $0x0d0a
GLOBL lineBytes<>(SB), RODATA|NOPTR, $8

// func lineStopAVX2(b []byte) (i int, nul uint64, high uint64)
//
// Returns the index of the first '\n' or '\r' in b (len(b) if none), and
// whether b[:i] holds a NUL byte (nul) or a byte 0x80 and up (high,
// non-zero), in one pass: 32 bytes a step, the last few one at a time.
// AVX2.
TEXT ·LineStopAVX2(SB), NOSPLIT, $0-48
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), R13
	XORQ DI, DI
	XORQ R8, R8                  // NULs seen
	XORQ R9, R9                  // high bytes seen
	VPBROADCASTB lineBytes<>+0(SB), Y10  // '\n'
	VPBROADCASTB lineBytes<>+1(SB), Y11  // '\r'
	VPXOR Y12, Y12, Y12          // 0

lsloop:
	LEAQ 32(DI), AX
	CMPQ AX, R13
	JGT  lstail
	VMOVDQU (SI)(DI*1), Y0
	VPCMPEQB Y0, Y10, Y1
	VPCMPEQB Y0, Y11, Y2
	VPOR     Y2, Y1, Y1
	VPMOVMSKB Y1, AX             // line ends
	VPCMPEQB Y0, Y12, Y3
	VPMOVMSKB Y3, BX             // NULs
	VPMOVMSKB Y0, DX             // high bytes
	TESTL AX, AX
	JNZ  lsfound
	ORL  BX, R8
	ORL  DX, R9
	ADDQ $32, DI
	JMP  lsloop

lsfound:
	BSFL AX, CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX                      // the bytes before the line end
	ANDL AX, BX
	ANDL AX, DX
	ORL  BX, R8
	ORL  DX, R9
	ADDQ CX, DI
	JMP  lsdone

lstail:
	CMPQ DI, R13
	JGE  lsdone
	MOVBLZX (SI)(DI*1), AX
	CMPL AX, $0x0a
	JEQ  lsdone
	CMPL AX, $0x0d
	JEQ  lsdone
	MOVL AX, BX
	ANDL $0x80, BX
	ORL  BX, R9
	TESTL AX, AX
	JNZ  lsnext
	MOVL $1, R8
lsnext:
	INCQ DI
	JMP  lstail

lsdone:
	VZEROUPPER
	MOVQ DI, i+24(FP)
	MOVQ R8, nul+32(FP)
	MOVQ R9, high+40(FP)
	RET

// quoteBytes are '"' and '\\', broadcast from memory.
DATA quoteBytes<>+0(SB)/8, $0x5c22
GLOBL quoteBytes<>(SB), RODATA|NOPTR, $8

// func quoteOrBackslashAVX2(b []byte) int
//
// Returns the index of the first '"' or '\\' in b, len(b) if none: 32
// bytes a step, the last block overlapping the one before; a b shorter
// than 32 bytes one byte at a time. AVX2.
TEXT ·quoteOrBackslashAVX2(SB), NOSPLIT, $0-32
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), R13
	XORQ DI, DI
	CMPQ R13, $32
	JLT  qbshort
	VPBROADCASTB quoteBytes<>+0(SB), Y10
	VPBROADCASTB quoteBytes<>+1(SB), Y11

qbloop:
	LEAQ 32(DI), AX
	CMPQ AX, R13
	JGT  qbtail
	VMOVDQU (SI)(DI*1), Y0
	VPCMPEQB Y0, Y10, Y1
	VPCMPEQB Y0, Y11, Y2
	VPOR     Y2, Y1, Y1
	VPMOVMSKB Y1, AX
	TESTL AX, AX
	JNZ  qbfound
	ADDQ $32, DI
	JMP  qbloop

qbtail:
	CMPQ DI, R13
	JGE  qbdone
	MOVQ R13, R10                // the last 32 bytes, shifted to start at DI
	SUBQ $32, R10
	VMOVDQU (SI)(R10*1), Y0
	VPCMPEQB Y0, Y10, Y1
	VPCMPEQB Y0, Y11, Y2
	VPOR     Y2, Y1, Y1
	VPMOVMSKB Y1, AX
	MOVQ DI, CX
	SUBQ R10, CX
	SHRL CX, AX
	TESTL AX, AX
	JNZ  qbfound
	MOVQ R13, DI
	JMP  qbdone

qbfound:
	BSFL AX, CX
	ADDQ CX, DI

qbdone:
	VZEROUPPER
	MOVQ DI, ret+24(FP)
	RET

qbshort:
	CMPQ DI, R13
	JGE  qbshortdone
	MOVBLZX (SI)(DI*1), AX
	CMPL AX, $0x22
	JEQ  qbshortdone
	CMPL AX, $0x5c
	JEQ  qbshortdone
	INCQ DI
	JMP  qbshort

qbshortdone:
	MOVQ DI, ret+24(FP)
	RET
