package columnar

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// tinyTokenizerWith is columnar/tokenizer's tiny fixture with src as its
// Split pattern.
func tinyTokenizerWith(t *testing.T, src string) *tokenizer.Tokenizer {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("tokenizer", "testdata", "tiny", "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(`"Regex": "`))
	j := bytes.Index(data[i:], []byte("\"\n"))
	if i < 0 || j < 0 {
		t.Fatal("fixture has no Regex line")
	}
	data = append(append(append([]byte{}, data[:i]...), `"Regex": "`+src+`"`...), data[i+j+1:]...)
	tok, err := tokenizer.LoadBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestIngestCountFailure: a tokenizer whose Split pattern explodes on one
// output text (issue 17 item 3; this one is polynomial, O(n⁴), and passes
// the load-time check) fails the ingest at once with the reason and the
// events file, instead of hanging or counting wrong.
func TestIngestCountFailure(t *testing.T) {
	tok := tinyTokenizerWith(t, `a*a*a*a*b|[^a]|a`)
	dir := t.TempDir()
	long := evLine("sample.complete", 1500, u1, `"turn":null,"data":["TextModelOutput",["a"," `+strings.Repeat("a", 5000)+`"],null,null]`)
	writeFiles(t, dir, map[string]string{
		"events.jsonl":  joinLines(lnStart, lnIssue1, lnFirst1, long, lnIssue2, lnFirst2, lnDone2, lnEnded),
		"run_meta.json": `{"dataset_size": 2}`,
	})
	run, err := ResolveRun(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		done := make(chan error, 1)
		go func() {
			_, err := Ingest(context.Background(), run, contract.IngestOptions{Counter: tok, Workers: workers})
			done <- err
		}()
		select {
		case err = <-done:
		case <-time.After(3 * time.Minute): // a hang guard, generous for a loaded machine
			t.Fatal("Ingest did not return within 3 minutes")
		}
		if !errors.Is(err, tokenizer.ErrPatternTooExpensive) || !strings.Contains(err.Error(), "count tokens in "+run.EventsPath+": tokenizer pattern too expensive") {
			t.Errorf("workers %d: Ingest error = %v", workers, err)
		}
	}
	// The same run without the long text ingests, counting with the same
	// tokenizer.
	writeFiles(t, dir, map[string]string{"events.jsonl": joinLines(lnStart, lnIssue1, lnFirst1, lnDone1, lnIssue2, lnFirst2, lnDone2, lnEnded)})
	tbl, err := Ingest(context.Background(), run, contract.IngestOptions{Counter: tok})
	if err != nil {
		t.Fatal(err)
	}
	if s := tbl.Samples(); s.Len() != 2 {
		t.Errorf("%d samples", s.Len())
	}
}
