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

// stringEndAVX2 is scanString's search in AVX2 (lines_amd64.s), selected
// with the word loop: the index of the first unescaped '"' in b, or of the
// first backslash whose escape is not a one-letter one (\u, an invalid or
// a cut-off escape, which the caller checks), len(b) if none; esc is
// non-zero when it took a one-letter escape before it. The escapes of
// prose (a \n a sentence, a \" a quote) stay in its loop: a call per
// escape (to each quote or backslash) cost more than the search.
//
//go:noescape
func stringEndAVX2(b []byte) (k int, esc uint64)
