#include "textflag.h"

// func wordsSSE2(b []byte, j int, prevSpace uint64) (next int, words int, prevSpaceOut uint64)
//
// Counts word starts in b[j:] 16 bytes at a time while every byte is
// printable ASCII other than '"' and '\\' (see swarWords); prevSpace is 1
// when the byte before j is a space or there is none. It stops at the
// first other byte (taking the bytes before it) or when fewer than 16
// bytes remain. SSE2 and POPCNT.
TEXT ·wordsSSE2(SB), NOSPLIT, $0-64
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), R13
	MOVQ j+24(FP), DI
	MOVQ prevSpace+32(FP), R8
	XORQ R9, R9
	MOVQ $0x2020202020202020, AX
	MOVQ AX, X10
	PUNPCKLQDQ X10, X10
	MOVQ $0x2222222222222222, AX
	MOVQ AX, X11
	PUNPCKLQDQ X11, X11
	MOVQ $0x5c5c5c5c5c5c5c5c, AX
	MOVQ AX, X12
	PUNPCKLQDQ X12, X12

loop:
	LEAQ 16(DI), AX
	CMPQ AX, R13
	JGT  done
	MOVOU (SI)(DI*1), X0
	MOVOU X10, X1
	PCMPGTB X0, X1      // 0x20 > x, signed: control bytes and non-ASCII
	MOVOU X0, X2
	PCMPEQB X11, X2
	POR  X2, X1
	MOVOU X0, X3
	PCMPEQB X12, X3
	POR  X3, X1
	PMOVMSKB X1, AX     // special bytes
	MOVOU X0, X4
	PCMPEQB X10, X4
	PMOVMSKB X4, BX     // spaces
	TESTL AX, AX
	JNZ  partial
	MOVL BX, DX         // starts = ^spaces & (spaces<<1 | prevSpace)
	SHLL $1, DX
	ORL  R8, DX
	MOVL BX, R10
	NOTL R10
	ANDL R10, DX
	ANDL $0xFFFF, DX
	POPCNTL DX, DX
	ADDQ DX, R9
	SHRL $15, BX
	MOVL BX, R8
	ADDQ $16, DI
	JMP  loop

partial:
	BSFL AX, AX         // k: the first special byte
	TESTL AX, AX
	JZ   done
	MOVL AX, CX
	MOVL $1, DX
	SHLL CX, DX
	DECL DX             // the k bytes before it
	MOVL BX, R10
	SHLL $1, R10
	ORL  R8, R10
	MOVL BX, R11
	NOTL R11
	ANDL R11, R10
	ANDL DX, R10
	POPCNTL R10, R10
	ADDQ R10, R9
	DECL CX
	SHRL CX, BX
	ANDL $1, BX
	MOVL BX, R8
	ADDQ AX, DI

done:
	MOVQ DI, next+40(FP)
	MOVQ R9, words+48(FP)
	MOVQ R8, prevSpaceOut+56(FP)
	RET
