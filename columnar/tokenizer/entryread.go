package tokenizer

import (
	"io"
	"sync"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// readEntry returns the bytes of the compiled entry at path. Where the
// system can (entryread_linux.go) they are the file mapped read-only
// rather than read: a hit of gpt-oss's 24.5 MB entry otherwise spends
// more on the kernel zeroing fresh pages and copying the file into them
// than on anything else it does. A mapping lives as long as the process
// (the tables of a Tokenizer point into it, and no finalizer could know
// when the last lookup is done), so each entry file — by identity — is
// mapped once and shared by every load of it. Entries are only ever
// replaced by rename (internal/atomicfile), never rewritten in place, so
// a mapped file keeps its bytes.
func readEntry(path string) ([]byte, error) {
	f, err := safeopen.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > safeopen.LimitTokenizer {
		return nil, &safeopen.Error{Path: path, Kind: "compiled tokenizers", Limit: safeopen.LimitTokenizer, Err: safeopen.ErrTooLarge}
	}
	id := contract.FileIdentity(st)
	mapped.Lock()
	defer mapped.Unlock()
	if data, ok := mapped.entries[id]; ok && id[1] != 0 {
		return data, nil
	}
	if data, ok := mapFile(f, st.Size()); ok {
		if id[1] != 0 {
			if mapped.entries == nil {
				mapped.entries = make(map[[5]int64][]byte)
			}
			mapped.entries[id] = data
		}
		return data, nil
	}
	return safeopen.ReadOpen(f, st, path, "compiled tokenizers", safeopen.LimitTokenizer)
}

// mapped holds the entries mapped so far, by file identity.
var mapped struct {
	sync.Mutex
	entries map[[5]int64][]byte
}

// entryHeaderSize bounds what readEntryIdentity reads: the magic, the
// flags, an identity ("sha256:" and 64 hex digits) and the header's CRC,
// with room to spare.
const entryHeaderSize = 512

// readEntryIdentity returns the identity in the header of the compiled
// entry at path (compiledIdentity), reading only its first bytes.
func readEntryIdentity(path string) (string, error) {
	f, err := safeopen.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var buf [entryHeaderSize]byte
	n, err := io.ReadFull(f, buf[:])
	if err != nil && err != io.ErrUnexpectedEOF {
		return "", err
	}
	return compiledIdentity(buf[:n])
}
