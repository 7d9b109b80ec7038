package contract_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
)

// zstdFrameWindow is a zstd frame (RFC 8878 §3.1.1) whose header declares
// a window of 2^windowLog bytes, holding content as one raw last block:
// the frame a hostile archive plants to make the decoder allocate.
func zstdFrameWindow(windowLog int, content []byte) []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, byte(windowLog-10) << 3}
	hdr := uint32(len(content))<<3 | 1 // Last_Block, Raw_Block, Block_Size
	b = append(b, byte(hdr), byte(hdr>>8), byte(hdr>>16))
	return append(b, content...)
}

// TestZstdWindowCapped is issue 30's "150 KB .zst declaring a 1 GiB
// window" (1.2 GB RSS per run): the frame is refused before the window is
// allocated, by an error naming the cap; a frame at the cap still reads.
func TestZstdWindowCapped(t *testing.T) {
	dir := t.TempDir()
	line := []byte(`{"event_type":"session.started","timestamp_ns":1}` + "\n")
	big := filepath.Join(dir, "big.zst")
	if err := os.WriteFile(big, zstdFrameWindow(30, line), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, err := contract.OpenEvents(big)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if !errors.Is(err, contract.ErrExpansion) || len(got) != 0 {
		t.Fatalf("1 GiB window: read %d bytes, err %v; want ErrExpansion naming the cap", len(got), err)
	}
	ok := filepath.Join(dir, "ok.zst")
	if err := os.WriteFile(ok, zstdFrameWindow(27, line), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, err = contract.OpenEvents(ok)
	if err != nil {
		t.Fatal(err)
	}
	got, err = io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, line) {
		t.Fatalf("128 MiB window: %q, %v", got, err)
	}
}

// TestCompressionBombBounded: a zstd stream of one 200 MiB line of one
// byte is a few KB on disk; reading it stops at maxExpansion times the
// file's size (plus slack) with ErrExpansion instead of decompressing
// (and, for a line of 64 GiB, spending minutes on) all of it.
func TestCompressionBombBounded(t *testing.T) {
	var buf bytes.Buffer
	zw, err := zstd.NewWriter(&buf, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	for range 200 {
		zw.Write(chunk)
	}
	zw.Close()
	path := filepath.Join(t.TempDir(), "events.jsonl.zst")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rc, err := contract.OpenEvents(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	n, err := io.Copy(io.Discard, rc)
	limit := int64(buf.Len())*contract.MaxExpansion + contract.ExpansionSlack
	if !errors.Is(err, contract.ErrExpansion) || n > limit+1<<20 || n < limit-1<<20 {
		t.Fatalf("%d compressed bytes: read %d (limit %d), err %v", buf.Len(), n, limit, err)
	}
}

// endless is a source of one line that never ends: it cancels the
// context once it has produced cancelAt bytes, and gives up (io.EOF)
// after giveUp, so code that ignores the cancel ends too and fails the
// test instead of hanging it.
type endless struct {
	produced, cancelAt, giveUp int64
	cancel                     func()
}

func (e *endless) Read(p []byte) (int, error) {
	if e.produced >= e.giveUp {
		return 0, io.EOF
	}
	for i := range p {
		p[i] = 'a'
	}
	e.produced += int64(len(p))
	if e.produced >= e.cancelAt {
		e.cancel()
	}
	return len(p), nil
}

// TestCancelWithinLine is issue 30's "SIGINT during a .zst line of 64
// GiB: 25–28 s": the context was checked between lines only. Both line
// scanners (the endpoints decoder's and the one of other tools' JSONL)
// now stop within the line, a few reads after the cancel.
func TestCancelWithinLine(t *testing.T) {
	for _, name := range []string{"endpoints decoder", "line reader"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			src := &endless{cancelAt: 16 << 20, giveUp: 512 << 20, cancel: cancel}
			rc, err := contract.Decompress(src, "x")
			if err != nil {
				t.Fatal(err)
			}
			rc.Watch(ctx)
			if name == "line reader" {
				lr := contract.NewLineReader(rc, 1<<20)
				for err == nil {
					_, _, _, err = lr.Next()
				}
			} else {
				var d contract.Decoded
				err = endpoints.DecodeReader(ctx, rc, endpoints.DecodeOptions{Name: "x", MaxLineSize: 1 << 20}, &d)
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err %v, want context.Canceled", err)
			}
			// The reads in flight when the cancel came finish: a few
			// buffers (bufio 64 KiB + the decoder's blocks), far below giveUp.
			if src.produced > src.cancelAt+32<<20 {
				t.Fatalf("%d bytes read after a cancel at %d", src.produced-src.cancelAt, src.cancelAt)
			}
		})
	}
}

// FuzzCompressedStream: any bytes behind a gzip or zstd magic (and any
// zstd frame header) are read through openEvents without a panic and
// within the expansion bound.
func FuzzCompressedStream(f *testing.F) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`{"event_type":"x"}` + "\n"))
	zw.Close()
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	f.Add(gz.Bytes())
	f.Add(enc.EncodeAll(bytes.Repeat([]byte("a\n"), 1000), nil))
	f.Add(zstdFrameWindow(30, []byte("a\n")))
	f.Add(zstdFrameWindow(27, []byte("a\n")))
	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "events.jsonl.zst")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		rc, err := contract.OpenEvents(path)
		if err != nil {
			return
		}
		defer rc.Close()
		n, err := io.Copy(io.Discard, rc)
		if limit := int64(len(b))*contract.MaxExpansion + contract.ExpansionSlack; n > limit+(1<<20) {
			t.Fatalf("%d bytes decompressed from %d (bound %d)", n, len(b), limit)
		}
		// Refused for its window only when its first frame declares one
		// over the cap (RFC 8878 §3.1.1.1); else only past the bound.
		if limit := int64(len(b))*contract.MaxExpansion + contract.ExpansionSlack; errors.Is(err, contract.ErrExpansion) && n < limit && contract.ZstdDeclaredWindow(b) <= contract.MaxZstdWindow {
			t.Fatalf("refused at %d bytes with a window of %d declared: %v", n, contract.ZstdDeclaredWindow(b), err)
		}
	})
}
