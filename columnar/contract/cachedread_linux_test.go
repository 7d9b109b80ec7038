//go:build linux && (amd64 || arm64)

package contract

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"testing"
)

// TestCachedReaderBytes: a file read through cachedReader is the bytes
// written to it, in reads of odd sizes that switch between the no-wait
// read and the ordinary one (both use and advance the file's one offset),
// and ends with io.EOF.
func TestCachedReaderBytes(t *testing.T) {
	want := make([]byte, 3<<20+12345)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range want {
		want[i] = byte(rng.Uint32())
	}
	f, err := os.CreateTemp(t.TempDir(), "events")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = f.Write(want)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart) // read from the start, as opened
	}
	st, serr := f.Stat()
	if err = errors.Join(err, serr); err != nil {
		t.Fatal(err)
	}
	r, ok := cachedFileReader(f, st).(*cachedReader)
	if !ok {
		t.Fatalf("a regular file is read by %T, not a cachedReader", cachedFileReader(f, st))
	}
	var got []byte
	buf := make([]byte, 256<<10)
	for i := 0; ; i++ {
		r.noWait = i%3 != 2 // every third read the ordinary one
		n, err := r.Read(buf[:1+(i*7919)%len(buf)])
		got = append(got, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, not the %d written (first difference at %d)", len(got), len(want), firstDiff(got, want))
	}
}

// TestCachedReaderPipe: a file that is not regular (a pipe) is read as
// itself.
func TestCachedReaderPipe(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	st, err := pr.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if r := cachedFileReader(pr, st); r != io.Reader(pr) {
		t.Fatalf("a pipe is read by %T", r)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
