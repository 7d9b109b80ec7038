package tokenizer

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
	"github.com/steadysweep/steadysweep/internal/safeopen"
	"github.com/steadysweep/steadysweep/internal/sha256"
)

// The compiled cache is keyed by the SHA-256 of the tokenizer file, and
// hashing gpt-oss's 27.9 MB tokenizer.json costs more than reading its
// compiled entry. So the sum is remembered against the file's identity
// (contract.FileIdentity: device, inode, size, mtime and ctime, in ns)
// in a small record under the cache's tokenizers/ids/, one per device and
// inode, rewritten when the identity changes:
//
//	magic    sumRecordMagic
//	identity 5 × i64, little-endian
//	sum      the file's SHA-256 (32 bytes)
//	crc      u32 CRC-32C of everything before it
//
// A load compares the record with the fstat of the descriptor it opened;
// any change (an in-place edit changes the ctime, which no user can set
// back) hashes the file again. A record is written only for a file whose
// mtime and ctime are at least racyWindow older than the hash's start:
// the filesystem's clock ticks (4 ms on Linux, 2 s for FAT's mtime), and
// a file written within the tick its identity was read in could be
// written again without changing it (git's "racily clean" entries).
const sumRecordMagic = "sstoksum"

const sumRecordSize = len(sumRecordMagic) + 5*8 + sha256.Size + 4

// sumDir is the subdirectory of compiledDir holding the records.
const sumDir = "ids"

// racyWindow is how much older than the hash's start a file must be for
// its sum to be recorded (tests lower it).
var racyWindow = 2 * time.Second

// sumHashes counts the tokenizer files hashed (a test's evidence that a
// record was used).
var sumHashes atomic.Int64

// openedFile is a tokenizer file open for hashing and reading, with its
// identity as fstat gave it when it was opened.
type openedFile struct {
	f    *os.File
	st   os.FileInfo
	id   [5]int64
	path string
}

func openTokenizerFile(path string) (*openedFile, error) {
	f, err := safeopen.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return &openedFile{f: f, st: st, id: contract.FileIdentity(st), path: path}, nil
}

// sum returns the file's SHA-256: the one recorded under dir when the
// record is intact and names this identity, else the file hashed now
// (and recorded, when it is old enough and did not change while read).
func (o *openedFile) sum(dir string) ([sha256.Size]byte, error) {
	record := o.recordPath(dir)
	if record != "" {
		if sum, ok := readSumRecord(record, o.id); ok {
			return sum, nil
		}
	}
	start := time.Now()
	sum, err := o.hash()
	if err != nil {
		return sum, err
	}
	o.record(dir, sum, start)
	return sum, nil
}

// record writes the record of the file's sum, read from a start at
// start, when the file is stable; a record that cannot be written costs
// only the next load's hash.
func (o *openedFile) record(dir string, sum [sha256.Size]byte, start time.Time) {
	path := o.recordPath(dir)
	if path == "" || !o.stable(start) {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = atomicfile.WriteFile(path, appendSumRecord(nil, o.id, sum))
	}
}

// recordPath is the record of the file's device and inode under dir, or
// "" where the identity has no inode or ctime (it would prove nothing).
func (o *openedFile) recordPath(dir string) string {
	if o.id[1] == 0 || o.id[4] == 0 {
		return ""
	}
	return filepath.Join(dir, sumDir, fmt.Sprintf("%x-%x", uint64(o.id[0]), uint64(o.id[1])))
}

// stable reports whether the file may be recorded after a hash begun at
// start: it was last changed racyWindow or more before start, and its
// descriptor's fstat still gives the identity it was opened with.
func (o *openedFile) stable(start time.Time) bool {
	limit := start.Add(-racyWindow).UnixNano()
	if o.id[3] > limit || o.id[4] > limit {
		return false
	}
	st, err := o.f.Stat()
	return err == nil && contract.FileIdentity(st) == o.id
}

// hash reads the file from its start in pieces: a hit needs the hash of
// a tokenizer.json of tens of megabytes, not its bytes in memory.
func (o *openedFile) hash() (sum [sha256.Size]byte, err error) {
	sumHashes.Add(1)
	if _, err := o.f.Seek(0, io.SeekStart); err != nil {
		return sum, fmt.Errorf("tokenizer: read %s: %w", o.path, err)
	}
	h := sha256.New()
	n, err := io.CopyBuffer(h, io.LimitReader(o.f, safeopen.LimitTokenizer+1), make([]byte, 256<<10))
	if err != nil {
		return sum, fmt.Errorf("tokenizer: read %s: %w", o.path, err)
	}
	if n > safeopen.LimitTokenizer {
		return sum, fmt.Errorf("tokenizer: %w", &safeopen.Error{Path: o.path, Kind: "tokenizer files", Limit: safeopen.LimitTokenizer, Err: safeopen.ErrTooLarge})
	}
	h.Sum(sum[:0])
	return sum, nil
}

// read returns the whole file, from its start.
func (o *openedFile) read() ([]byte, error) {
	if _, err := o.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("tokenizer: read %s: %w", o.path, err)
	}
	data, err := safeopen.ReadOpen(o.f, o.st, o.path, "tokenizer files", safeopen.LimitTokenizer)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return data, nil
}

func (o *openedFile) Close() error { return o.f.Close() }

func appendSumRecord(dst []byte, id [5]int64, sum [sha256.Size]byte) []byte {
	start := len(dst)
	dst = append(dst, sumRecordMagic...)
	for _, v := range id {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v))
	}
	dst = append(dst, sum[:]...)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli()))
}

// readSumRecord returns the sum the record at path holds for identity id;
// false when it is absent, damaged (CRC) or for another identity.
func readSumRecord(path string, id [5]int64) (sum [sha256.Size]byte, ok bool) {
	b, err := safeopen.ReadFile(path, "tokenizer sum records", int64(sumRecordSize))
	if err != nil || len(b) != sumRecordSize || string(b[:len(sumRecordMagic)]) != sumRecordMagic {
		return sum, false
	}
	body := b[:sumRecordSize-4]
	if crc32.Checksum(body, castagnoli()) != binary.LittleEndian.Uint32(b[len(body):]) {
		return sum, false
	}
	b = body[len(sumRecordMagic):]
	for _, v := range id {
		if binary.LittleEndian.Uint64(b) != uint64(v) {
			return sum, false
		}
		b = b[8:]
	}
	copy(sum[:], b)
	return sum, true
}
