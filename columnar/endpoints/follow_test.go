package endpoints_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/endpoints"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// followInput is a synthetic run's events.jsonl (clean_ramp, 3 passes),
// generated independently of the decoder.
func followInput(t *testing.T) []byte {
	t.Helper()
	spec, err := synth.PresetSpec("clean_ramp", 7)
	if err != nil {
		t.Fatal(err)
	}
	spec.Passes = 3
	dir := t.TempDir()
	if _, err := synth.Generate(dir, spec); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestFollowerMatchesDecodeReader: a log fed to a Follower in pieces cut
// anywhere (inside lines, inside "\r\n", one byte at a time) decodes to
// exactly DecodeReader's samples and summary, and mid-stream snapshots
// hold exactly the samples issued by the complete lines fed so far.
func TestFollowerMatchesDecodeReader(t *testing.T) {
	raw := followInput(t)
	crlf := bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n"))
	for _, in := range []struct {
		name string
		raw  []byte
	}{{"lf", raw}, {"crlf", crlf}, {"cut", raw[:len(raw)-37]}} {
		var want contract.Decoded
		if err := endpoints.DecodeReader(context.Background(), bytes.NewReader(in.raw), endpoints.DecodeOptions{Counter: tokenizer.Words{}, Workers: 1}, &want); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for _, maxPiece := range []int{1, 7, 4096, len(in.raw)} {
			f := endpoints.NewFollower(endpoints.DecodeOptions{Counter: tokenizer.Words{}})
			for off := 0; off < len(in.raw); {
				n := min(1+rng.IntN(maxPiece), len(in.raw)-off)
				if err := f.Feed(in.raw[off : off+n]); err != nil {
					t.Fatal(err)
				}
				off += n
				if maxPiece == 4096 && off < len(in.raw) {
					// Every sample issued by a complete line is in the snapshot.
					complete := bytes.LastIndexByte(in.raw[:off], '\n') + 1
					var part contract.Decoded
					if err := endpoints.DecodeReader(context.Background(), bytes.NewReader(in.raw[:complete]), endpoints.DecodeOptions{Counter: tokenizer.Words{}, Workers: 1}, &part); err != nil {
						t.Fatal(err)
					}
					if got := f.Snapshot(); !reflect.DeepEqual(got.IssueNs, part.Samples.IssueNs) || !reflect.DeepEqual(got.HasComplete, part.Samples.HasComplete) ||
						!reflect.DeepEqual(got.FailureKind, part.Samples.FailureKind) {
						t.Fatalf("%s: snapshot after %d bytes: %d samples, a decode of the complete lines %d", in.name, off, got.Len(), part.Samples.Len())
					}
				}
			}
			if f.Fed() != int64(len(in.raw)) {
				t.Fatalf("%s: fed %d of %d bytes", in.name, f.Fed(), len(in.raw))
			}
			if err := f.Finish(); err != nil {
				t.Fatal(err)
			}
			got := f.Decoded()
			if !reflect.DeepEqual(got.Samples, want.Samples) {
				t.Errorf("%s, pieces ≤ %d: samples differ from DecodeReader's (%d vs %d)", in.name, maxPiece, got.Samples.Len(), want.Samples.Len())
			}
			gs, ws := got.Summary, want.Summary
			if gs.Lines != ws.Lines || gs.Samples != ws.Samples || gs.Completed != ws.Completed || gs.Truncated != ws.Truncated ||
				!reflect.DeepEqual(gs.Events, ws.Events) || !reflect.DeepEqual(gs.Problems, ws.Problems) {
				t.Errorf("%s, pieces ≤ %d: summary\n%+v\nDecodeReader's\n%+v", in.name, maxPiece, gs, ws)
			}
		}
	}
}

// TestFollowerPartialLine: a line without its terminator is held back,
// not decoded and not a problem, until the terminator arrives.
func TestFollowerPartialLine(t *testing.T) {
	raw := followInput(t)
	first := bytes.IndexByte(raw, '\n') + 1
	second := first + bytes.IndexByte(raw[first:], '\n') + 1
	f := endpoints.NewFollower(endpoints.DecodeOptions{Counter: tokenizer.Words{}})
	if err := f.Feed(raw[:second-1]); err != nil {
		t.Fatal(err)
	}
	if f.Lines() != 1 || f.Pending() != second-1-first || len(f.Summary().Problems) != 0 {
		t.Fatalf("after a partial second line: %d lines, %d bytes pending, problems %v", f.Lines(), f.Pending(), f.Summary().Problems)
	}
	if err := f.Feed(raw[second-1 : second]); err != nil {
		t.Fatal(err)
	}
	if f.Lines() != 2 || f.Pending() != 0 {
		t.Fatalf("after its terminator: %d lines, %d bytes pending", f.Lines(), f.Pending())
	}
	if err := f.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := f.Feed([]byte("x")); err == nil {
		t.Error("Feed after Finish: no error")
	}
}
