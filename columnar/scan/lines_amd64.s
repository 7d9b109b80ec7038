#include "textflag.h"

// lineBytes are the line ends, broadcast from memory (as in wordsAVX2,
// where broadcasting from general registers measured slower).
DATA lineBytes<>+0(SB)/8, $0x0d0a
GLOBL lineBytes<>(SB), RODATA|NOPTR, $8

// The UTF-8 check of lineStopAVX2 is the "lookup" algorithm of Keiser and
// Lemire, "Validating UTF-8 in less than one instruction per byte"
// (Software: Practice and Experience, 2021), as simdjson writes it: three
// nibble tables classify each byte with the one before it, and the bytes
// that two and three places after a lead of three and four bytes must be
// continuations are checked apart. Error bits: TOO_SHORT 1, TOO_LONG 2,
// OVERLONG_3 4, TOO_LARGE 8, SURROGATE 16, OVERLONG_2 32,
// TOO_LARGE_1000 and OVERLONG_4 64, TWO_CONTS 128.

// The nibble tables (·utf8Hi1, ·utf8Lo1, ·utf8Hi2) and the masks
// (·utf8Masks: the low nibble, 0xe0-0x80 and 0xf0-0x80, whose saturating
// differences have the high bit only from a third and a fourth byte on,
// and the high bit) are wordsAVX2's (words_amd64.s).

// u8MaxTail is the largest byte at each place of a block after which the
// next block needs no continuation: a lead of two, three or four bytes
// in the last, second-last or third-last place is incomplete.
DATA u8MaxTail<>+0(SB)/8, $0xffffffffffffffff
DATA u8MaxTail<>+8(SB)/8, $0xffffffffffffffff
DATA u8MaxTail<>+16(SB)/8, $0xffffffffffffffff
DATA u8MaxTail<>+24(SB)/8, $0xbfdfefffffffffff
GLOBL u8MaxTail<>(SB), RODATA|NOPTR, $32

// laneIndex is each byte's place in a block: those below k are kept of
// the block whose line ends at k.
DATA laneIndex<>+0(SB)/8, $0x0706050403020100
DATA laneIndex<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA laneIndex<>+16(SB)/8, $0x1716151413121110
DATA laneIndex<>+24(SB)/8, $0x1f1e1d1c1b1a1918
GLOBL laneIndex<>(SB), RODATA|NOPTR, $32

// UTF8BLOCK checks the block Y0 (with Y9 the block before it, Y14 that
// block's incomplete tail) into the error bits Y13, and moves Y0 to Y9.
// An ASCII block (DX, its high-bit mask, zero) only ends the tail before.
// Clobbers Y1-Y3, Y8, Y15.
#define UTF8BLOCK(skip) \
	TESTL DX, DX; \
	JNZ  3(PC); \
	VPOR Y14, Y13, Y13; \
	JMP  skip; \
	VPERM2I128 $0x21, Y0, Y9, Y1; \
	VPALIGNR $15, Y1, Y0, Y2; \
	VPSRLW $4, Y2, Y3; \
	VPAND Y7, Y3, Y3; \
	VPSHUFB Y3, Y4, Y3; \
	VPAND Y7, Y2, Y8; \
	VPSHUFB Y8, Y5, Y8; \
	VPAND Y8, Y3, Y3; \
	VPSRLW $4, Y0, Y8; \
	VPAND Y7, Y8, Y8; \
	VPSHUFB Y8, Y6, Y8; \
	VPAND Y8, Y3, Y3; \
	VPALIGNR $14, Y1, Y0, Y2; \
	VPALIGNR $13, Y1, Y0, Y15; \
	VPBROADCASTB ·utf8Masks+1(SB), Y8; \
	VPSUBUSB Y8, Y2, Y2; \
	VPBROADCASTB ·utf8Masks+2(SB), Y8; \
	VPSUBUSB Y8, Y15, Y15; \
	VPOR Y15, Y2, Y2; \
	VPBROADCASTB ·utf8Masks+3(SB), Y8; \
	VPAND Y8, Y2, Y2; \
	VPXOR Y3, Y2, Y2; \
	VPOR Y2, Y13, Y13; \
	VPSUBUSB u8MaxTail<>+0(SB), Y0, Y14

// func lineStopAVX2(b []byte) (i int, nul, high, bad uint64)
//
// Returns the index of the first '\n' or '\r' in b (len(b) if none), and
// whether b[:i] holds a NUL byte (nul), a byte 0x80 and up (high), or is
// not valid UTF-8 (bad), each non-zero when so, in one pass: 32 bytes a
// step; the block holding the line end, or the last few bytes copied to a
// zeroed block on the stack, with the bytes from the line end on cleared
// (an ASCII NUL ends any incomplete character there). AVX2.
TEXT ·LineStopAVX2(SB), NOSPLIT, $32-56
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), R13
	XORQ DI, DI
	XORQ R8, R8                  // NULs seen
	XORQ R9, R9                  // high bytes seen
	VPBROADCASTB lineBytes<>+0(SB), Y10  // '\n'
	VPBROADCASTB lineBytes<>+1(SB), Y11  // '\r'
	VPXOR Y12, Y12, Y12          // 0
	VPXOR Y13, Y13, Y13          // UTF-8 error bits
	VPXOR Y14, Y14, Y14          // incomplete tail of the block before
	VPXOR Y9, Y9, Y9             // the block before
	VBROADCASTI128 ·utf8Hi1(SB), Y4
	VBROADCASTI128 ·utf8Lo1(SB), Y5
	VBROADCASTI128 ·utf8Hi2(SB), Y6
	VPBROADCASTB ·utf8Masks+0(SB), Y7

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
	UTF8BLOCK(lsnextblock)
lsnextblock:
	VMOVDQU Y0, Y9
	ADDQ $32, DI
	JMP  lsloop

lstail:
	// The r < 32 bytes left, copied into a zeroed block.
	MOVQ R13, CX
	SUBQ DI, CX                  // r
	VMOVDQU Y12, 0(SP)
	XORQ AX, AX
lscopy:
	CMPQ AX, CX
	JGE  lscopied
	LEAQ (DI)(AX*1), R10
	MOVB (SI)(R10*1), R11
	MOVB R11, 0(SP)(AX*1)
	INCQ AX
	JMP  lscopy
lscopied:
	VMOVDQU 0(SP), Y0
	VPCMPEQB Y0, Y10, Y1
	VPCMPEQB Y0, Y11, Y2
	VPOR     Y2, Y1, Y1
	VPMOVMSKB Y1, AX             // line ends (the zeros are none)
	VPCMPEQB Y0, Y12, Y3
	VPMOVMSKB Y3, BX             // NULs, the zeros after r too: masked below
	VPMOVMSKB Y0, DX
	BTSQ CX, AX                  // no line end: it stops at r
	JMP  lsfound

lsfound:
	BSFQ AX, CX                  // k: the line end in the block
	MOVL $1, AX
	SHLL CX, AX
	DECL AX                      // the bytes before the line end
	ANDL AX, BX
	ANDL AX, DX
	ORL  BX, R8
	ORL  DX, R9
	VMOVQ CX, X1
	VPBROADCASTB X1, Y1
	VPCMPGTB laneIndex<>(SB), Y1, Y1
	VPAND Y1, Y0, Y0             // the bytes from the line end on cleared
	UTF8BLOCK(lsend)
lsend:
	ADDQ CX, DI

	VPTEST Y13, Y13
	SETNE R10B
	MOVBQZX R10B, R10
	VZEROUPPER
	MOVQ DI, i+24(FP)
	MOVQ R8, nul+32(FP)
	MOVQ R9, high+40(FP)
	MOVQ R10, bad+48(FP)
	RET

// quoteBytes are '"' and '\\', broadcast from memory.
DATA quoteBytes<>+0(SB)/8, $0x5c22
GLOBL quoteBytes<>(SB), RODATA|NOPTR, $8

// func stringEndAVX2(b []byte) (k int, esc uint64)
//
// Returns the index of the first '"' in b that no backslash escapes, or
// of the first backslash whose escape is not one of the one-letter ones
// (\u, an invalid or a cut-off escape: the caller takes it), len(b) if
// none; esc is non-zero when it took a one-letter escape on the way.
// 32 bytes a step, the escapes taken in the block's quote and backslash
// mask (one clears the bits of its two bytes), so that a string with an
// escape every sentence stays in the vector loop; the last 31 bytes one
// at a time. AVX2.
TEXT ·stringEndAVX2(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), R13
	XORQ DI, DI
	XORQ R9, R9                  // escapes taken
	MOVQ $0x800400000000, R14    // the one-letter escapes below 0x40: " /
	MOVQ $0x14404410000000, R15  // and from 0x40, less 0x40: \ b f n r t
	VPBROADCASTB quoteBytes<>+0(SB), Y10
	VPBROADCASTB quoteBytes<>+1(SB), Y11

seblock:
	LEAQ 32(DI), AX
	CMPQ AX, R13
	JGT  setail
	VMOVDQU (SI)(DI*1), Y0
	VPCMPEQB Y0, Y10, Y1
	VPCMPEQB Y0, Y11, Y2
	VPOR     Y2, Y1, Y1
	VPMOVMSKB Y1, BX             // quotes and backslashes
semask:
	TESTL BX, BX
	JNZ  sehit
	ADDQ $32, DI
	JMP  seblock

sehit:
	BSFL BX, CX
	LEAQ (DI)(CX*1), DX          // its index
	MOVBLZX (SI)(DX*1), AX
	CMPL AX, $0x22
	JEQ  sefound
	LEAQ 1(DX), R10
	CMPQ R10, R13
	JGE  sefound                 // a backslash at the end
	MOVBLZX (SI)(R10*1), AX
	CMPL AX, $0x40
	JAE  sehigh
	BTQ  AX, R14
	JCC  sefound
	JMP  seescape
sehigh:
	CMPL AX, $0x80
	JAE  sefound
	SUBL $0x40, AX
	BTQ  AX, R15
	JCC  sefound
seescape:
	MOVL $1, R9
	CMPL CX, $30
	JAE  senextblock             // the escape ends at or past the block's end
	ADDL $2, CX
	MOVL $-1, AX
	SHLL CX, AX                  // the bits after the escape's two bytes
	ANDL AX, BX
	JMP  semask
senextblock:
	LEAQ 2(DX), DI
	JMP  seblock

setail:
	CMPQ DI, R13
	JGE  sedone
	MOVBLZX (SI)(DI*1), AX
	CMPL AX, $0x22
	JEQ  sedone
	CMPL AX, $0x5c
	JEQ  setailbs
	INCQ DI
	JMP  setail
setailbs:
	LEAQ 1(DI), R10
	CMPQ R10, R13
	JGE  sedone
	MOVBLZX (SI)(R10*1), AX
	CMPL AX, $0x40
	JAE  setailhigh
	BTQ  AX, R14
	JCC  sedone
	JMP  setailesc
setailhigh:
	CMPL AX, $0x80
	JAE  sedone
	SUBL $0x40, AX
	BTQ  AX, R15
	JCC  sedone
setailesc:
	MOVL $1, R9
	ADDQ $2, DI
	JMP  setail

sefound:
	MOVQ DX, DI

sedone:
	VZEROUPPER
	MOVQ DI, k+24(FP)
	MOVQ R9, esc+32(FP)
	RET
