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

// wordsAVX2's constants: the bytes it compares with (broadcast into
// registers), and for the UTF-8 check the three nibble tables of Keiser
// and Lemire's lookup algorithm ("Validating UTF-8 in less than one
// instruction per byte", 2021; broadcast to both 128-bit lanes) and its
// masks.
// Table bits: 0x01 too short, 0x02 too long, 0x04 overlong 3, 0x08 too
// large, 0x10 surrogate, 0x20 overlong 2, 0x40 too large (1000) or
// overlong 4, 0x80 two continuations.
DATA avx2Bytes<>+0(SB)/8, $0xe2fee1c21f5c2220
DATA avx2Bytes<>+8(SB)/1, $0x2c
GLOBL avx2Bytes<>(SB), RODATA|NOPTR, $9

DATA ·utf8Hi1+0(SB)/8, $0x0202020202020202  // by the high nibble of the byte before
DATA ·utf8Hi1+8(SB)/8, $0x4915012180808080
GLOBL ·utf8Hi1(SB), RODATA|NOPTR, $16

DATA ·utf8Lo1+0(SB)/8, $0xcbcbcb8b8383a3e7  // by its low nibble
DATA ·utf8Lo1+8(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL ·utf8Lo1(SB), RODATA|NOPTR, $16

DATA ·utf8Hi2+0(SB)/8, $0x0101010101010101  // by the high nibble of the byte
DATA ·utf8Hi2+8(SB)/8, $0x01010101babaaee6
GLOBL ·utf8Hi2(SB), RODATA|NOPTR, $16

// The masks: the low nibble; 0xE0 - 0x80 and 0xF0 - 0x80, whose saturating
// differences are 0x80 and up only from third and fourth bytes on; the
// high bit.
DATA ·utf8Masks+0(SB)/8, $0x8070600f
GLOBL ·utf8Masks(SB), RODATA|NOPTR, $8

// escapeClass classifies the ASCII byte after a backslash for wordsAVX2:
// 1 for the escapes of spaces (\n \t \r \f), 2 for those of other
// characters it takes (\" \\ \/ \b), 0 for the rest (\u, bad ones).
DATA escapeClass<>+0x22(SB)/1, $2
DATA escapeClass<>+0x2f(SB)/1, $2
DATA escapeClass<>+0x5c(SB)/1, $2
DATA escapeClass<>+0x62(SB)/1, $2
DATA escapeClass<>+0x66(SB)/1, $1
DATA escapeClass<>+0x6e(SB)/1, $1
DATA escapeClass<>+0x72(SB)/1, $1
DATA escapeClass<>+0x74(SB)/1, $1
GLOBL escapeClass<>(SB), RODATA|NOPTR, $128

// func wordsAVX2(b []byte, j int, prevSpace, chunks, trusted uint64) (next int, words int, prevSpaceOut uint64, dropped int, bad uint64)
//
// Counts word starts in b[j:] 32 bytes at a time (needs 3 <= j and
// j+32 <= len(b)), with more of scanStringWords' cases in the loop than
// wordsSSE2: bytes 0x80 and up count as non-space word bytes (exact on
// valid UTF-8, see scanStringWords) and are checked as UTF-8 in place
// (bad is non-zero on an error at a byte it took or stopped at), except
// the lead bytes of the multi-byte Unicode spaces (0xC2, 0xE1, 0xE2,
// 0xE3), which stop the vectors and whose whole characters it then takes
// one at a time, spaces or not as PyIsSpace says; the two-byte escapes \n \t \r \f (spaces) and \" \\ \/ \b (not)
// are taken in place (each decodes to one byte: one byte dropped). With
// chunks non-zero, a closing quote directly followed by ," (the next
// string of a chunk list) is taken in place too, the three bytes dropped
// and transparent to the count (a word may go on across them): the
// strings count as their concatenation, many separators a block, without
// a stop per string.
// It stops at any other '"', a control byte, one of those lead bytes
// not followed by its continuations, a \u or bad escape, or len(b); the last block overlaps the one before, so
// it never stops inside a character for want of bytes. AVX2 and POPCNT.
//
// Registers: SI b, R13 len(b), DI j, R8 prevSpace, R9 words, R12
// dropped, R11 UTF-8 errors; per block R10 where it was loaded, AX the
// stops, BX the spaces, DX the UTF-8 errors, R14 the separators (R14 and
// Y15 are free in ABI0 code: the wrapper restores them). The block's masks
// and R10 are kept on the stack (0 to 16(SP)): after a two-byte escape
// inside it the count goes on from those masks shifted past the escape
// (avxnext), with a stop at the block's end that only loads the next
// block, instead of loading and checking the block again from there — at
// an escape every 28 bytes of prose, a block was loaded about twice.
TEXT ·wordsAVX2(SB), NOSPLIT, $24-96
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), R13
	MOVQ j+24(FP), DI
	MOVQ prevSpace+32(FP), R8
	XORQ R9, R9
	XORQ R12, R12
	XORQ R11, R11
	VPBROADCASTB avx2Bytes<>+0(SB), Y10  // ' '
	VPBROADCASTB avx2Bytes<>+1(SB), Y11  // '"'
	VPBROADCASTB avx2Bytes<>+2(SB), Y12  // '\\'
	VPBROADCASTB avx2Bytes<>+3(SB), Y13  // control bytes are <= 0x1f
	VPBROADCASTB avx2Bytes<>+4(SB), Y14  // 0xC2
	VPBROADCASTB avx2Bytes<>+5(SB), Y7   // 0xE1
	VPBROADCASTB avx2Bytes<>+6(SB), Y9   // 0xE2 and 0xE3 are 0xE2 under 0xFE
	VPBROADCASTB avx2Bytes<>+7(SB), Y8
	VPBROADCASTB avx2Bytes<>+8(SB), Y15  // ','

avxloop:
	MOVQ DI, R10
	LEAQ 32(DI), AX
	CMPQ AX, R13
	JLE  avxblock
	CMPQ DI, R13
	JGE  avxdone
	MOVQ R13, R10                // the last 32 bytes of b
	SUBQ $32, R10

avxblock:
	VMOVDQU (SI)(R10*1), Y0
	VPCMPEQB Y0, Y11, Y1         // stops of ASCII: '"', '\\', control bytes
	VPMOVMSKB Y1, R14            // the quotes
	VPCMPEQB Y0, Y12, Y2
	VPOR     Y2, Y1, Y1
	VPMINUB  Y0, Y13, Y3
	VPCMPEQB Y0, Y3, Y3
	VPOR     Y3, Y1, Y1
	VPMOVMSKB Y1, AX
	VPCMPEQB Y0, Y10, Y2         // spaces
	VPMOVMSKB Y2, BX

	// Separators of a chunk list, R14: bit k when b[k:k+3] is `","`
	// (whole in the block). Their bytes are transparent to the count
	// (T = Sep | Sep<<1 | Sep<<2) and their quotes are no stops. From j
	// on the quotes alternate, closing then opening (an escaped one
	// comes after a backslash, a stop), so without overlaps each
	// candidate before the first stop starts at a closing quote; a block
	// with two that overlap or touch leaves them all to the stops.
	TESTL    R14, R14
	JZ       avxnosep
	MOVQ     chunks+40(FP), CX
	TESTQ    CX, CX
	JZ       avxzerosep
	VPCMPEQB Y0, Y15, Y2
	VPMOVMSKB Y2, CX             // commas
	SHRL     $1, CX
	ANDL     R14, CX
	SHRL     $2, R14
	ANDL     CX, R14             // Sep = Q & C>>1 & Q>>2
	MOVQ     DI, CX              // from j on (the last block starts
	SUBQ     R10, CX             // before it: a "," there may be one
	SHRL     CX, R14             // string's text)
	SHLL     CX, R14
	MOVL     R14, CX             // two that overlap (k and k+2: the string
	SHRL     $2, CX              // between is ",", and which quote closes
	MOVL     CX, DX              // a string is known only in order) or
	SHRL     $1, DX              // touch (k and k+3: an empty chunk)
	ORL      DX, CX
	TESTL    R14, CX
	JNZ      avxzerosep
	MOVL     R14, CX
	SHLL     $2, CX
	ORL      R14, CX             // the separators' quotes
	NOTL     CX
	ANDL     CX, AX
	JMP      avxnosep

avxzerosep:
	XORL     R14, R14

avxnosep:
	VMOVDQU  -3(SI)(R10*1), Y5   // ASCII from 3 bytes before on: no lead
	VPOR     Y0, Y5, Y6          // byte to stop at, no UTF-8 error
	VPMOVMSKB Y6, DX
	TESTL    DX, DX
	JZ       avxchecked

	// The lead bytes to stop at.
	VPCMPEQB Y0, Y14, Y4
	VPCMPEQB Y0, Y7, Y1
	VPOR     Y4, Y1, Y1
	VPAND    Y0, Y9, Y6
	VPCMPEQB Y6, Y8, Y6
	VPOR     Y6, Y1, Y1
	VPMOVMSKB Y1, CX
	ORL      CX, AX
	XORL     DX, DX              // known UTF-8: no check (trusted)
	CMPQ     trusted+48(FP), $0
	JNE      avxchecked

	// UTF-8 errors (Keiser and Lemire): the nibble tables on the byte
	// before and this one, XOR "must be a continuation" (two or three
	// bytes after a lead of three or four).
	VMOVDQU  -1(SI)(R10*1), Y1
	VPBROADCASTB ·utf8Masks+0(SB), Y6
	VPSRLW   $4, Y1, Y2
	VPAND    Y6, Y2, Y2
	VBROADCASTI128 ·utf8Hi1(SB), Y3
	VPSHUFB  Y2, Y3, Y3
	VPAND    Y6, Y1, Y2
	VBROADCASTI128 ·utf8Lo1(SB), Y4
	VPSHUFB  Y2, Y4, Y4
	VPAND    Y4, Y3, Y3
	VPSRLW   $4, Y0, Y2
	VPAND    Y6, Y2, Y2
	VBROADCASTI128 ·utf8Hi2(SB), Y4
	VPSHUFB  Y2, Y4, Y4
	VPAND    Y4, Y3, Y3
	VMOVDQU  -2(SI)(R10*1), Y1
	VPBROADCASTB ·utf8Masks+1(SB), Y6
	VPSUBUSB Y6, Y1, Y1
	VPBROADCASTB ·utf8Masks+2(SB), Y6
	VPSUBUSB Y6, Y5, Y2
	VPOR     Y2, Y1, Y1
	VPBROADCASTB ·utf8Masks+3(SB), Y6
	VPAND    Y6, Y1, Y1
	VPXOR    Y3, Y1, Y1
	VPXOR    Y2, Y2, Y2
	VPCMPEQB Y2, Y1, Y1
	VPMOVMSKB Y1, DX
	NOTL     DX

avxchecked:
	MOVL AX, 0(SP)
	MOVL BX, 4(SP)
	MOVL DX, 8(SP)
	MOVL R14, 12(SP)
	MOVQ R10, 16(SP)

avxresume:
	CMPQ R10, DI
	JEQ  avxwhole
	// The last block, or the rest of a block after an escape: shift it so
	// that bit 0 is b[DI], with a stop at its end (len(b) for the last).
	MOVQ DI, CX
	SUBQ R10, CX                 // 1..31
	SHRL CX, AX
	SHRL CX, BX
	SHRL CX, DX
	SHRL CX, R14
	MOVL R14, R10                // the quotes of the separators left are no
	SHLL $2, R10                 // stops (avxnext gives the stops with all
	ORL  R14, R10                // quotes: past an escape a candidate is
	NOTL R10                     // true up to the next stop only)
	ANDL R10, AX
	NEGL CX
	ADDL $32, CX                 // bytes left, 1..31
	MOVL $1, R10
	SHLL CX, R10
	ORL  R10, AX

avxwhole:
	TESTL AX, AX
	JNZ  avxpartial
	ORL  DX, R11
	// X, the space state (a separator's bytes carry the state of the byte
	// before it): X = spaces&^T | spread(Sep & (spaces<<1 | prevSpace));
	// word starts = ^(spaces|T) & (X<<1 | prevSpace).
	MOVL R14, CX                 // T
	SHLL $1, CX
	ORL  R14, CX
	SHLL $1, CX
	ORL  R14, CX
	MOVL BX, DX                  // A
	SHLL $1, DX
	ORL  R8, DX
	ANDL R14, DX
	MOVL DX, R10                 // spread(A)
	SHLL $1, R10
	ORL  DX, R10
	SHLL $1, R10
	ORL  DX, R10
	MOVL CX, DX                  // X
	NOTL DX
	ANDL BX, DX
	ORL  R10, DX
	ORL  CX, BX                  // ^(spaces|T)
	NOTL BX
	MOVL DX, R10
	SHLL $1, R10
	ORL  R8, R10
	ANDL BX, R10
	POPCNTL R10, R10
	ADDQ R10, R9
	SHRL $31, DX
	MOVL DX, R8
	POPCNTL R14, R10             // 3 bytes dropped a separator
	LEAQ (R10)(R10*2), R10
	ADDQ R10, R12
	ADDQ $32, DI
	JMP  avxloop

avxpartial:
	BSFL AX, CX                  // k: the first stop
	MOVL $2, R10
	SHLL CX, R10
	DECL R10
	ANDL R10, DX                 // errors up to the stop, which may end a character
	ORL  DX, R11
	TESTL CX, CX
	JZ   avxspecial
	MOVL $1, DX
	SHLL CX, DX
	DECL DX                      // the k bytes before it
	ANDL DX, R14                 // the separators before it (a stop is never inside one)
	ANDL DX, BX
	MOVL R14, AX                 // T
	SHLL $1, AX
	ORL  R14, AX
	SHLL $1, AX
	ORL  R14, AX
	MOVL BX, R10                 // ^(spaces|T), the k bytes
	ORL  AX, R10
	NOTL R10
	ANDL R10, DX
	MOVL BX, R10                 // A
	SHLL $1, R10
	ORL  R8, R10
	ANDL R14, R10
	POPCNTL R14, R14             // 3 bytes dropped a separator
	LEAQ (R14)(R14*2), R14
	ADDQ R14, R12
	MOVL R10, R14                // spread(A)
	SHLL $1, R14
	ORL  R10, R14
	SHLL $1, R14
	ORL  R10, R14
	NOTL AX                      // X
	ANDL AX, BX
	ORL  R14, BX
	MOVL BX, R10
	SHLL $1, R10
	ORL  R8, R10
	ANDL DX, R10
	POPCNTL R10, R10
	ADDQ R10, R9
	DECL CX
	SHRL CX, BX
	ANDL $1, BX
	MOVL BX, R8
	INCL CX
	ADDQ CX, DI

avxspecial:
	CMPQ DI, R13
	JGE  avxdone
	MOVQ 16(SP), R10
	ADDQ $32, R10
	CMPQ DI, R10
	JEQ  avxloop                 // the block's end: load the next
	MOVBLZX (SI)(DI*1), AX
	CMPL AX, $0x22
	JEQ  avxquote
	CMPL AX, $0x5c
	JEQ  avxbackslash
	CMPL AX, $0xc2
	JEQ  avxlead2
	CMPL AX, $0xe1
	JB   avxdone                 // a control byte: the caller's
	CMPL AX, $0xe3
	JA   avxdone

	// A lead byte of a multi-byte space: the character is taken here when
	// it is whole (a lead and continuations, which then holds no UTF-8
	// error that the lead's place did not show), a space or not as
	// PyIsSpace says; else the caller's.
	LEAQ 3(DI), DX
	CMPQ DX, R13
	JG   avxdone
	MOVBLZX 1(SI)(DI*1), DX
	MOVBLZX 2(SI)(DI*1), CX
	MOVL DX, R10
	ANDL $0xc0, R10
	CMPL R10, $0x80
	JNE  avxdone
	MOVL CX, R10
	ANDL $0xc0, R10
	CMPL R10, $0x80
	JNE  avxdone
	SHLL $16, AX
	SHLL $8, DX
	ORL  DX, AX
	ORL  CX, AX                  // its three bytes
	CMPL AX, $0xe19a80           // U+1680
	JEQ  avxspace3
	CMPL AX, $0xe38080           // U+3000
	JEQ  avxspace3
	SUBL $0xe28080, AX           // past U+2000 (below it: wrapped, large)
	CMPL AX, $0x0a               // U+2000 to U+200A
	JBE  avxspace3
	CMPL AX, $0x11f              // U+205F, e2 81 9f
	JEQ  avxspace3
	SUBL $0x28, AX               // U+2028 and U+2029, e2 80 a8 and a9
	CMPL AX, $1
	JBE  avxspace3
	CMPL AX, $7                  // U+202F, e2 80 af
	JEQ  avxspace3
	ADDQ R8, R9                  // a word starts if a space came before
	XORQ R8, R8
	ADDQ $3, DI
	JMP  avxnext

avxspace3:
	MOVQ $1, R8
	ADDQ $3, DI
	JMP  avxnext

avxlead2:
	LEAQ 2(DI), DX
	CMPQ DX, R13
	JG   avxdone
	MOVBLZX 1(SI)(DI*1), DX
	MOVL DX, R10
	ANDL $0xc0, R10
	CMPL R10, $0x80
	JNE  avxdone
	CMPL DX, $0x85               // U+0085
	JEQ  avxspace2
	CMPL DX, $0xa0               // U+00A0
	JEQ  avxspace2
	ADDQ R8, R9
	XORQ R8, R8
	ADDQ $2, DI
	JMP  avxnext

avxspace2:
	MOVQ $1, R8
	ADDQ $2, DI
	JMP  avxnext

avxbackslash:
	LEAQ 1(DI), DX
	CMPQ DX, R13
	JGE  avxdone
	MOVBLZX 1(SI)(DI*1), DX
	CMPL DX, $0x80
	JAE  avxdone
	LEAQ escapeClass<>(SB), R10
	MOVBLZX (R10)(DX*1), DX
	CMPL DX, $1
	JEQ  avxspaceesc
	CMPL DX, $2
	JEQ  avxwordesc
	JMP  avxdone                 // \u or a bad escape: the caller's

avxspaceesc:
	MOVQ $1, R8
	INCQ R12
	ADDQ $2, DI
	JMP  avxnext

avxwordesc:
	ADDQ R8, R9                  // a word starts if a space came before
	XORQ R8, R8
	INCQ R12
	ADDQ $2, DI

avxnext:                         // on in the block of 16(SP), if DI is in it
	MOVQ 16(SP), R10
	LEAQ 32(R10), AX
	CMPQ DI, AX
	JGE  avxloop
	MOVL 4(SP), BX
	MOVL 8(SP), DX
	MOVL 12(SP), R14
	MOVL R14, AX                 // the stops with the separators' quotes:
	SHLL $2, AX                  // a candidate after the stop taken may be
	ORL  R14, AX                 // an escaped quote's (\","), and the
	ORL  0(SP), AX               // quote after it a string's end
	JMP  avxresume

avxquote:                        // the end of a string: of a chunk list's?
	MOVQ chunks+40(FP), DX
	TESTQ DX, DX
	JZ   avxdone
	LEAQ 3(DI), DX
	CMPQ DX, R13
	JGE  avxdone
	CMPB 1(SI)(DI*1), $0x2c
	JNE  avxdone
	CMPB 2(SI)(DI*1), $0x22
	JNE  avxdone
	ADDQ $3, R12
	ADDQ $3, DI
	JMP  avxnext

avxdone:
	VZEROUPPER
	MOVQ DI, next+56(FP)
	MOVQ R9, words+64(FP)
	MOVQ R8, prevSpaceOut+72(FP)
	MOVQ R12, dropped+80(FP)
	MOVQ R11, bad+88(FP)
	RET
