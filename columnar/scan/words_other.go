//go:build !amd64

package scan

var (
	HaveWordsSSE2 = false
	HaveWordsAVX2 = false
)

func wordsSSE2(b []byte, j int, prevSpace uint64) (int, int, uint64) { return j, 0, prevSpace }

func wordsAVX2(b []byte, j int, prevSpace, chunks, trusted uint64) (int, int, uint64, int, uint64) {
	return j, 0, prevSpace, 0, 0
}
