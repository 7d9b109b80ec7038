//go:build !amd64

package columnar

const haveWordsSSE2 = false

func wordsSSE2(b []byte, j int, prevSpace uint64) (int, int, uint64) { return j, 0, prevSpace }
