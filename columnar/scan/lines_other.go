//go:build !amd64

package scan

func LineStopAVX2(b []byte) (int, uint64, uint64, uint64) { panic("scan: no AVX2 line scan") }

func stringEndAVX2(b []byte) (int, uint64) { panic("scan: no AVX2 string scan") }
