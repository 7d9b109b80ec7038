package tokenizer

import "math"

// bpeModel is HF's byte-level BPE, worked on raw bytes: a piece starts as
// one symbol per byte, and the adjacent pair whose merge has the lowest rank
// (leftmost among equals) is merged until no pair has a merge. Vocabulary
// strings are GPT-2 byte-mapped in tokenizer.json; they are mapped back to
// bytes at load time so that encoding never builds byte-mapped strings.
type bpeModel struct {
	// merges maps a pair of ids, first<<32|second, to rank<<32|merged id.
	merges *mergeTable
	// symbols gives the initial id of a byte by position in the piece,
	// indexed by symbolFirst|symbolLast bits; the four tables differ only
	// with continuing_subword_prefix or end_of_word_suffix.
	symbols [4][256]uint32
	// ignoreMerges: a piece that is itself in the vocabulary is one token.
	ignoreMerges bool
	vocab        *vocabTable // raw bytes → id, used with ignoreMerges
	cache        bpeCache
}

const (
	symbolFirst = 1
	symbolLast  = 2
)

const noMerge = math.MaxUint64

// naiveMergeLimit is the piece length up to which the quadratic scan for the
// lowest-ranked pair beats a heap; longer pieces (base64 blobs, digit runs,
// 6000-character words) use the heap to stay O(n log n).
const naiveMergeLimit = 96

// bpeScratch is per-goroutine working memory for merging one piece.
type bpeScratch struct {
	syms  []uint32
	ranks []uint64
	prev  []int32
	next  []int32
	heap  mergeHeap
}

func (b *bpeModel) pairRank(left, right uint32) uint64 {
	return b.merges.get(uint64(left)<<32 | uint64(right))
}

// appendPiece appends the ids of one pre-tokenized piece.
func (b *bpeModel) appendPiece(dst []uint32, piece string, sc *bpeScratch) []uint32 {
	switch len(piece) {
	case 0:
		return dst
	case 1:
		return append(dst, b.symbols[symbolFirst|symbolLast][piece[0]])
	}
	h, cacheable := b.cache.hash(piece)
	if cacheable {
		if ids, ok := b.cache.get(piece, h); ok {
			return append(dst, ids...)
		}
	}
	if b.ignoreMerges {
		if id, ok := b.vocab.get(piece); ok {
			if cacheable {
				b.cache.put(piece, h, []uint32{id})
			}
			return append(dst, id)
		}
	}
	start := len(dst)
	if len(piece) <= naiveMergeLimit {
		dst = b.mergeNaive(dst, piece, sc)
	} else {
		dst = b.mergeHeap(dst, piece, sc)
	}
	if cacheable {
		b.cache.put(piece, h, dst[start:])
	}
	return dst
}

func (b *bpeModel) initialSymbols(syms []uint32, piece string) []uint32 {
	last := len(piece) - 1
	for i := 0; i < len(piece); i++ {
		kind := 0
		if i == 0 {
			kind |= symbolFirst
		}
		if i == last {
			kind |= symbolLast
		}
		syms = append(syms, b.symbols[kind][piece[i]])
	}
	return syms
}

func (b *bpeModel) mergeNaive(dst []uint32, piece string, sc *bpeScratch) []uint32 {
	syms := b.initialSymbols(sc.syms[:0], piece)
	ranks := sc.ranks[:0]
	for i := 0; i+1 < len(syms); i++ {
		ranks = append(ranks, b.pairRank(syms[i], syms[i+1]))
	}
	for {
		best, bestRank := -1, uint64(noMerge)
		for i, r := range ranks {
			// Ranks are unique per merge, so a tie is the same pair again
			// and the strict comparison keeps the leftmost.
			if r < bestRank {
				best, bestRank = i, r
			}
		}
		if best < 0 {
			break
		}
		syms[best] = uint32(bestRank)
		syms = append(syms[:best+1], syms[best+2:]...)
		ranks = append(ranks[:best], ranks[best+1:]...)
		if best > 0 {
			ranks[best-1] = b.pairRank(syms[best-1], syms[best])
		}
		if best < len(ranks) {
			ranks[best] = b.pairRank(syms[best], syms[best+1])
		}
	}
	sc.syms, sc.ranks = syms, ranks
	return append(dst, syms...)
}

// mergeHeap is HF's Word::merge_all: symbols in a linked list and candidate
// merges in a priority queue by (rank, position); a popped candidate whose
// symbols have changed since it was queued is skipped.
func (b *bpeModel) mergeHeap(dst []uint32, piece string, sc *bpeScratch) []uint32 {
	syms := b.initialSymbols(sc.syms[:0], piece)
	n := len(syms)
	prev, next := sc.prev[:0], sc.next[:0]
	for i := 0; i < n; i++ {
		prev = append(prev, int32(i-1))
		next = append(next, int32(i+1))
	}
	next[n-1] = -1
	h := sc.heap[:0]
	for i := 0; i+1 < n; i++ {
		if r := b.pairRank(syms[i], syms[i+1]); r != noMerge {
			h.push(mergeCandidate{rankID: r, pos: int32(i)})
		}
	}
	const dead = math.MaxUint32
	for len(h) > 0 {
		c := h.pop()
		pos := c.pos
		right := next[pos]
		if syms[pos] == dead || right < 0 || b.pairRank(syms[pos], syms[right]) != c.rankID {
			continue
		}
		syms[pos] = uint32(c.rankID)
		syms[right] = dead
		after := next[right]
		next[pos] = after
		if after >= 0 {
			prev[after] = pos
		}
		if p := prev[pos]; p >= 0 {
			if r := b.pairRank(syms[p], syms[pos]); r != noMerge {
				h.push(mergeCandidate{rankID: r, pos: p})
			}
		}
		if after >= 0 {
			if r := b.pairRank(syms[pos], syms[after]); r != noMerge {
				h.push(mergeCandidate{rankID: r, pos: pos})
			}
		}
	}
	for i := int32(0); i >= 0; i = next[i] {
		dst = append(dst, syms[i])
	}
	sc.syms, sc.prev, sc.next, sc.heap = syms, prev, next, h
	return dst
}

type mergeCandidate struct {
	rankID uint64 // rank<<32 | merged id, as in bpeModel.merges
	pos    int32
}

func (a mergeCandidate) less(b mergeCandidate) bool {
	if a.rankID>>32 != b.rankID>>32 {
		return a.rankID>>32 < b.rankID>>32
	}
	return a.pos < b.pos
}

// mergeHeap is a binary min-heap; container/heap would box every element.
type mergeHeap []mergeCandidate

func (h *mergeHeap) push(c mergeCandidate) {
	*h = append(*h, c)
	s := *h
	i := len(s) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !s[i].less(s[parent]) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *mergeHeap) pop() mergeCandidate {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		small := l
		if r := l + 1; r < len(s) && s[r].less(s[l]) {
			small = r
		}
		if !s[small].less(s[i]) {
			break
		}
		s[i], s[small] = s[small], s[i]
		i = small
	}
	*h = s
	return top
}
