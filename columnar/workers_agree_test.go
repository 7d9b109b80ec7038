package columnar

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// TestDecodeWorkersAgreeOnRealShapes: the parallel decoder (blocks cut
// at line boundaries, decoded on N goroutines, applied in order by the
// one state machine) gives the one-worker decode's columns exactly — the
// samples, their uuids and text lengths, the summary — on the streamed
// layout (benchlog.StreamedShape, two chunks and a chunk per word: long
// escaped strings, non-ASCII words) and on every log of the parity corpus,
// for block sizes from a few lines to the default.
func TestDecodeWorkersAgreeOnRealShapes(t *testing.T) {
	logs := map[string][]byte{}
	for name, chunking := range map[string]benchlog.Chunking{"streamed-two": benchlog.TwoChunks, "streamed-per-word": benchlog.ChunkPerWord} {
		var b bytes.Buffer
		if _, err := benchlog.StreamedShape(&b, 1<<20, chunking); err != nil {
			t.Fatal(err)
		}
		logs[name] = b.Bytes()
	}
	runs, _ := filepath.Glob(filepath.Join(sharedDir(t), "parity", "runs", "*", "events.jsonl"))
	if len(runs) == 0 {
		t.Fatal("no parity logs")
	}
	for _, p := range runs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		logs["parity/"+filepath.Base(filepath.Dir(p))] = b
	}
	decode := func(in []byte, workers, blockSize int) *contract.Decoded {
		var d contract.Decoded
		if err := endpoints.DecodeReader(context.Background(), bytes.NewReader(in),
			endpoints.DecodeOptions{Name: "events.jsonl", Counter: tokenizer.Words{}, Workers: workers, BlockSize: blockSize}, &d); err != nil {
			t.Fatal(err)
		}
		return &d
	}
	for name, in := range logs {
		want := decode(in, 1, 0)
		if want.Samples.Len() == 0 {
			t.Fatalf("%s: no samples", name)
		}
		for _, c := range []struct{ workers, blockSize int }{{2, 0}, {3, 4 << 10}, {2, 64 << 10}} {
			got := decode(in, c.workers, c.blockSize)
			what := fmt.Sprintf("%s workers=%d block=%d", name, c.workers, c.blockSize)
			if !reflect.DeepEqual(got.Samples, want.Samples) {
				t.Errorf("%s: samples differ from one worker's", what)
			}
			if !reflect.DeepEqual(got.Keys, want.Keys) || !reflect.DeepEqual(got.Ext, want.Ext) || !reflect.DeepEqual(got.TextBytes, want.TextBytes) {
				t.Errorf("%s: uuids or text lengths differ from one worker's", what)
			}
			if !reflect.DeepEqual(got.Summary, want.Summary) {
				t.Errorf("%s: summary differs:\ngot  %+v\nwant %+v", what, got.Summary, want.Summary)
			}
		}
	}
}
