//go:build unix

package safeopen

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"
)

// withDeadline runs f and fails the test if it has not returned within d:
// the bug this package fixes is a hang, so a hang must fail, not stall.
// At least three minutes: a hang guard, not a speed limit (a loaded
// machine stretches a blocked-free read too).
func withDeadline(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	d = max(d, 3*time.Minute)
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v", d)
	}
}

func TestHostileObjects(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	zeroLink := filepath.Join(dir, "run_meta.json")
	if err := os.Symlink("/dev/zero", zeroLink); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "big.yaml")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil { // 10 GiB, no blocks
		t.Skipf("sparse file: %v", err)
	}
	f.Close()
	small := filepath.Join(dir, "ok.json")
	if err := os.WriteFile(small, []byte(`{"dataset_size": 8}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name, path string
		is         error
		msg        string
	}{
		{"fifo", fifo, ErrNotRegular, fifo + ": is a named pipe (FIFO), not a regular file"},
		{"dev zero", "/dev/zero", ErrNotRegular, "/dev/zero: is a character device, not a regular file"},
		{"link to dev zero", zeroLink, ErrNotRegular, zeroLink + ": is a character device, not a regular file"},
		{"directory", dir, ErrNotRegular, dir + ": is a directory, not a regular file"},
		{"sparse 10 GiB", sparse, ErrTooLarge, sparse + ": larger than the 4 MiB limit for config.yaml"},
		{"missing", filepath.Join(dir, "absent"), fs.ErrNotExist, "no such file or directory"},
		{"dangling link", dangling, fs.ErrNotExist, "no such file or directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var (
				b   []byte
				err error
			)
			withDeadline(t, 5*time.Second, func() { b, err = ReadFile(tc.path, "config.yaml", LimitConfig) })
			if !errors.Is(err, tc.is) {
				t.Fatalf("ReadFile(%s) = %d bytes, %v; want an error wrapping %v", tc.path, len(b), err, tc.is)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
	b, err := ReadFile(small, "run_meta.json", LimitRunMeta)
	if err != nil || string(b) != `{"dataset_size": 8}` {
		t.Fatalf("regular file: %q, %v", b, err)
	}
	if _, err := ReadFile(small, "run_meta.json", 5); !errors.Is(err, ErrTooLarge) ||
		err.Error() != small+": larger than the 5 B limit for run_meta.json" {
		t.Fatalf("over a 5-byte limit: %v", err)
	}
}

// TestNonblockingOpen shows why the open itself carries O_NONBLOCK: the
// check-then-open in Open is a race (a FIFO can replace the file after the
// stat), and a FIFO opened with these flags returns at once instead of
// waiting for a writer; the fstat after it then refuses it.
func TestNonblockingOpen(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "events.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	withDeadline(t, 5*time.Second, func() {
		f, err := os.OpenFile(fifo, os.O_RDONLY|openFlags, 0)
		if err != nil {
			t.Errorf("open FIFO non-blocking: %v", err)
			return
		}
		st, err := f.Stat()
		f.Close()
		if err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("fstat of the FIFO: %v, %v", st, err)
		}
	})
}

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	if err := CheckDir(dir); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(file); !errors.Is(err, ErrNotRegular) || err.Error() != file+": is a regular file, not a directory" {
		t.Fatalf("CheckDir(file) = %v", err)
	}
}

func TestReadAllLimit(t *testing.T) {
	r := strings.NewReader(strings.Repeat("x", 11))
	if _, err := ReadAll(r, "tokenizer.json.gz", "tokenizer.json (decompressed)", 10); !errors.Is(err, ErrTooLarge) ||
		err.Error() != "tokenizer.json.gz: larger than the 10 B limit for tokenizer.json (decompressed)" {
		t.Fatalf("ReadAll over the limit: %v", err)
	}
	b, err := ReadAll(strings.NewReader("0123456789"), "x", "x", 10)
	if err != nil || len(b) != 10 {
		t.Fatalf("ReadAll at the limit: %d, %v", len(b), err)
	}
}

// TestLimitReader reads through small buffers (iotest.OneByteReader and
// 3-byte reads) so the limit falls inside a read: exactly limit bytes pass
// whole; one more fails with ErrTooLarge after delivering limit bytes.
func TestLimitReader(t *testing.T) {
	for _, chunk := range []int{1, 3, 64} {
		read := func(n int) ([]byte, error) {
			r := LimitReader(iotest.OneByteReader(strings.NewReader(strings.Repeat("x", n))), "m.json", "sample_idx_map.json", 10)
			var got []byte
			buf := make([]byte, chunk)
			for {
				k, err := r.Read(buf)
				got = append(got, buf[:k]...)
				if err != nil {
					return got, err
				}
			}
		}
		if got, err := read(10); !errors.Is(err, io.EOF) || len(got) != 10 {
			t.Fatalf("chunk %d, at the limit: %d bytes, %v", chunk, len(got), err)
		}
		got, err := read(11)
		if !errors.Is(err, ErrTooLarge) || len(got) != 10 ||
			err.Error() != "m.json: larger than the 10 B limit for sample_idx_map.json" {
			t.Fatalf("chunk %d, over the limit: %d bytes, %v", chunk, len(got), err)
		}
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int64]string{512: "512 B", 4 << 20: "4 MiB", 3 << 29: "1.5 GiB", 2 << 30: "2 GiB", 1024: "1 KiB"} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestReadSized covers ReadFile's read into a buffer sized from the stat:
// the content whole when the size holds, read on when the file has grown
// since (a stated size smaller than the content), refused past the limit
// either way; read through one-byte reads so short reads are exercised.
func TestReadSized(t *testing.T) {
	content := strings.Repeat("0123456789", 1000)
	for _, stated := range []int64{0, 1, 9999, 10000} {
		b, err := readSized(iotest.OneByteReader(strings.NewReader(content)), "c.arrow", "a cache entry", 10000, stated)
		if err != nil || string(b) != content {
			t.Fatalf("stated size %d: %d bytes, %v; want the %d bytes", stated, len(b), err, len(content))
		}
		_, err = readSized(strings.NewReader(content+"x"), "c.arrow", "a cache entry", 10000, stated)
		if !errors.Is(err, ErrTooLarge) || err.Error() != "c.arrow: larger than the 9.8 KiB limit for a cache entry" {
			t.Fatalf("stated size %d, one byte over the limit: %v", stated, err)
		}
	}
}

// TestReadFileLarge reads a file big enough for HugeRoom's huge-page
// advice (several 2 MiB pages) and compares it with the bytes written.
func TestReadFileLarge(t *testing.T) {
	want := make([]byte, 9<<20+12345)
	for i := range want {
		want[i] = byte(i*7 + i>>13)
	}
	path := filepath.Join(t.TempDir(), "big.arrow")
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path, "a cache entry", 16<<20)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadFile: %d bytes, %v; want the %d written", len(got), err, len(want))
	}
	if b := HugeRoom[int64](5 << 20); len(b) != 0 || cap(b) != 5<<20 {
		t.Fatalf("HugeRoom(5 Mi int64s): len %d cap %d", len(b), cap(b))
	}
}
