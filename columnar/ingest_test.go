package columnar

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
)

// slowCounter is a PendingCounter that becomes ready after some calls to
// Ready (one per decoded block), counting like byteCounter.
type slowCounter struct {
	left   atomic.Int64
	counts atomic.Int64
}

func (c *slowCounter) Identity() string { return "test-bytes" }
func (c *slowCounter) Ready() bool      { return c.left.Add(-1) < 0 }
func (c *slowCounter) Count(text string) int {
	c.counts.Add(1)
	return byteCounter{}.Count(text)
}

// TestPendingCounterLoadsBesideTheDecode: blocks decoded before the counter
// is ready leave their counts for a second pass over their lines; the
// result is the same as with the counter ready from the start.
func TestPendingCounterLoadsBesideTheDecode(t *testing.T) {
	run, err := ResolveRun(context.Background(), filepath.Join("..", "testdata", "goodrun"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := Load(context.Background(), run, contract.IngestOptions{Counter: byteCounter{}, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		c := &slowCounter{}
		c.left.Store(3)
		got, err := loadWithBlockSize(t, run, contract.IngestOptions{Counter: c, Workers: workers}, 4096)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Samples, want.Samples) || got.Summary.Counter != want.Summary.Counter {
			t.Fatalf("workers %d: pending counter differs:\n%v\n%v", workers, got.Samples.OutTokens, want.Samples.OutTokens)
		}
		if n := c.counts.Load(); n == 0 {
			t.Fatal("nothing counted")
		}
	}
}

// loadWithBlockSize is Load with small decode blocks, so a small log
// spans several.
func loadWithBlockSize(t *testing.T, run *contract.Run, opts contract.IngestOptions, block int) (*contract.Loaded, error) {
	t.Helper()
	l := &contract.Loaded{}
	rc, err := contract.OpenEvents(run.EventsPath)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	if err := endpoints.DecodeReader(context.Background(), rc, endpoints.DecodeOptions{Name: run.EventsPath, Counter: opts.Counter, Workers: opts.Workers, BlockSize: block}, &l.Decoded); err != nil {
		return nil, err
	}
	if len(l.UncountedRows) > 0 {
		if err := endpoints.CountLines(context.Background(), run, opts, &l.Decoded, append([]int32(nil), l.UncountedRows...)); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// TestDecodeMemoryLimit: a log whose samples need more than the limit
// ends with ErrMemoryLimit (no unbounded growth); under a sufficient limit
// the result is unchanged.
func TestDecodeMemoryLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(lnStart + "\n")
	for i := 0; i < 5000; i++ {
		u := strings.Repeat("0", 24) + string("0123456789abcdef"[i%16]) + strings.Repeat("0", 3) + hex4ID(i)
		b.WriteString(evLine("sample.issued", int64(1000+i), u, "") + "\n")
	}
	in := b.String()
	var d contract.Decoded
	err := endpoints.DecodeReader(context.Background(), strings.NewReader(in), endpoints.DecodeOptions{MemoryLimit: 1000 * endpoints.BytesPerSample}, &d)
	if !errors.Is(err, contract.ErrMemoryLimit) {
		t.Fatalf("err %v, want ErrMemoryLimit", err)
	}
	if err := endpoints.DecodeReader(context.Background(), strings.NewReader(in), endpoints.DecodeOptions{MemoryLimit: 64 << 20}, &d); err != nil || d.Samples.Len() != 5000 {
		t.Fatalf("%d samples, %v", d.Samples.Len(), err)
	}
}

func hex4ID(i int) string {
	const h = "0123456789abcdef"
	return string([]byte{h[i>>12&15], h[i>>8&15], h[i>>4&15], h[i&15]})
}

// TestDecodeSizeHintAllocatesOnce: with the stream's size known, the
// columns are sized from the fraction read, not doubled: the final
// capacity is within a few percent of the sample count.
func TestDecodeSizeHintAllocatesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	size := writeBenchLog(t, path, 8<<20)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d contract.Decoded
	if err := endpoints.DecodeReader(context.Background(), f, endpoints.DecodeOptions{Workers: 1, SizeHint: size}, &d); err != nil {
		t.Fatal(err)
	}
	n, c := d.Samples.Len(), cap(d.Samples.IssueNs)
	if n < 1000 || c > n+n/5+256 {
		t.Fatalf("%d samples in capacity %d", n, c)
	}
}
