package core_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/synth"
)

// decodeRun produces the detector input of a run directory with the
// production decoder (columnar) and the word counter of the parity corpus.
func decodeRun(dir string) (*core.Samples, core.RunInfo, error) {
	run, err := columnar.ResolveRun(context.Background(), dir)
	if err != nil {
		return nil, core.RunInfo{}, err
	}
	tbl, err := columnar.Ingest(context.Background(), run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		return nil, core.RunInfo{}, err
	}
	s := tbl.Samples()
	return &s, tbl.Info, nil
}

// TestDecodersAgree compares the production decoder's samples with the
// oracle decoder's (oracle_test.go) on every parity run, column by column,
// for the columns the detector reads.
func TestDecodersAgree(t *testing.T) {
	shared := sharedDir(t)
	runs := parityRuns(t, shared)
	for _, dir := range runs {
		got, gotInfo, err := decodeRun(dir)
		if err != nil {
			t.Fatalf("%s: columnar: %v", dir, err)
		}
		want, wantInfo, err := oracleDecode(dir)
		if err != nil {
			t.Fatalf("%s: oracle: %v", dir, err)
		}
		if gotInfo.DatasetSize != wantInfo.DatasetSize || gotInfo.LoadPattern != wantInfo.LoadPattern {
			t.Errorf("%s: info %+v, oracle %+v", dir, gotInfo, wantInfo)
		}
		for _, c := range []struct {
			name      string
			got, want any
		}{
			{"IssueNs", got.IssueNs, want.IssueNs},
			{"LastIssueNs", got.LastIssueNs, want.LastIssueNs},
			{"LastEventNs", got.LastEventNs, want.LastEventNs},
			{"HasFirstToken", got.HasFirstToken, want.HasFirstToken},
			{"TTFTNs", got.TTFTNs, want.TTFTNs},
			{"WarmTTFT", got.WarmTTFT, want.WarmTTFT},
			{"FirstTokenSeq order", seqOrder(got.FirstTokenSeq), seqOrder(want.FirstTokenSeq)},
			{"HasComplete", got.HasComplete, want.HasComplete},
			{"CompleteNs", got.CompleteNs, want.CompleteNs},
			{"LatencyNs", got.LatencyNs, want.LatencyNs},
			{"CompleteSeq order", seqOrder(got.CompleteSeq), seqOrder(want.CompleteSeq)},
			{"OutTokens", got.OutTokens, want.OutTokens},
			{"ConversationID", filled(got.ConversationID, got.Len(), ""), filled(want.ConversationID, want.Len(), "")},
		} {
			if !reflect.DeepEqual(c.got, c.want) {
				t.Errorf("%s: column %s differs: %s", dir, c.name, firstMismatch(c.got, c.want))
			}
		}
		// FullTokens only matter where the NATL path reads them.
		if gotInfo.LoadPattern == "agentic_inference" && !reflect.DeepEqual(got.FullTokens, want.FullTokens) {
			t.Errorf("%s: column FullTokens differs: %s", dir, firstMismatch(got.FullTokens, want.FullTokens))
		}
	}
}

// seqOrder replaces line ordinals by their rank (−1 stays −1): the
// detector only uses their order.
func seqOrder(seq []int64) []int {
	idx := make([]int, 0, len(seq))
	for i, s := range seq {
		if s >= 0 {
			idx = append(idx, i)
		}
	}
	sortByKey(idx, func(i int) int64 { return seq[i] })
	rank := make([]int, len(seq))
	for i := range rank {
		rank[i] = -1
	}
	for r, i := range idx {
		rank[i] = r
	}
	return rank
}

func firstMismatch(a, b any) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Len() != vb.Len() {
		return fmt.Sprintf("length %d vs %d", va.Len(), vb.Len())
	}
	for i := range va.Len() {
		if !reflect.DeepEqual(va.Index(i).Interface(), vb.Index(i).Interface()) {
			return fmt.Sprintf("first at sample %d: %v vs oracle %v", i, va.Index(i), vb.Index(i))
		}
	}
	return "?"
}

// filled is an optional column of n samples (core.Samples: n long or
// empty) with its absent values written out.
func filled[T any](col []T, n int, absent T) []T {
	if len(col) > 0 {
		return col
	}
	out := make([]T, n)
	for i := range out {
		out[i] = absent
	}
	return out
}

// forSharedRuns runs f as a subtest "corpus/run" on every run of the
// shared parity and accuracy corpora, decoded (an error where a corpus
// has no runs; a skip where ../shared is absent).
func forSharedRuns(t *testing.T, f func(t *testing.T, s *core.Samples, info core.RunInfo)) {
	t.Helper()
	shared := sharedDir(t)
	for _, corpus := range []string{"parity", "accuracy"} {
		runs, _ := filepath.Glob(filepath.Join(shared, corpus, "runs", "*"))
		if len(runs) == 0 {
			t.Errorf("no %s runs under %s", corpus, shared)
		}
		for _, dir := range runs {
			t.Run(corpus+"/"+filepath.Base(dir), func(t *testing.T) {
				s, info, err := decodeRun(dir)
				if err != nil {
					t.Fatalf("decode: %v", err)
				}
				f(t, s, info)
			})
		}
	}
}

// soakSpec is the change to a preset's spec that makes a long run of it
// (a soak test: many short super-passes, about 400), none when !long.
func soakSpec(long bool) func(*synth.Spec) {
	return func(sp *synth.Spec) {
		if long {
			f := 400 / sp.Passes
			sp.Passes *= f
			sp.DatasetSize = max(4, sp.DatasetSize/8)
			sp.Concurrency = min(sp.Concurrency, sp.DatasetSize)
			for k := range sp.Steps {
				sp.Steps[k].AtSuperPass *= f
			}
		}
	}
}
