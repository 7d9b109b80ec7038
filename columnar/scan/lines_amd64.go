package scan

// LineStopAVX2 is lineStop's one pass in AVX2 (lines_amd64.s), selected
// with the word loop (haveWordsAVX2): the index of the first '\n' or
// '\r' in b (len(b) if none), and whether b before it holds a NUL (nul),
// a byte 0x80 and up (high) or is not valid UTF-8 (bad, as utf8.Valid),
// each non-zero when so. The UTF-8 check rides on the same loads, so that
// the decoder validates each byte once.
//
//go:noescape
func LineStopAVX2(b []byte) (i int, nul, high, bad uint64)

// quoteOrBackslashAVX2 is scanString's search in AVX2 (lines_amd64.s),
// selected with the word loop: the index of the first '"' or '\\' in b,
// len(b) if none, in one pass (bytes.IndexByte twice was two).
//
//go:noescape
func quoteOrBackslashAVX2(b []byte) int
