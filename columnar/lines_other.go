//go:build !amd64

package columnar

func lineStopAVX2(b []byte) (int, uint64, uint64) { panic("columnar: no AVX2 line scan") }

func quoteOrBackslashAVX2(b []byte) int { panic("columnar: no AVX2 string scan") }
