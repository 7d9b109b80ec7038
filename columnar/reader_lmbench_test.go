package columnar

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/foreign"
	"github.com/steadysweep/steadysweep/core"
)

// lmbenchGen1/2 are the two header generations LMBenchmark's CSV has had
// (../shared/realdata/lmbench-*: gen 1 without, gen 2 with user and
// question ids).
const (
	lmbenchGen1 = "prompt_tokens,generation_tokens,ttft,generation_time,launch_time,finish_time"
	lmbenchGen2 = "prompt_tokens,generation_tokens,ttft,generation_time,user_id,question_id,launch_time,finish_time"
)

// lmbenchRowGen2 writes a gen-2 row launched at launch s with the given
// ttft and generation time (s).
func lmbenchRowGen2(in, out int, ttft, gen float64, user, q int, launch float64) string {
	return fmt.Sprintf("%d.0,%d.0,%v,%v,%d,%d,%v,%v", in, out, ttft, gen, user, q, launch, launch+ttft+gen)
}

// TestLMBenchGenerations: both header generations read to the values
// written into them: rows out of launch order are sorted, TTFT is the
// ttft column, the end finish_time, tokens as written, gen 2's
// user/question ids become conversations and turns, and a row with ttft 0
// (no token seen) is a failure.
func TestLMBenchGenerations(t *testing.T) {
	dir := t.TempDir()
	gen1 := writeTemp(t, dir, "g1/a.csv", lmbenchGen1+"\n689,275,0.25,16,1000.5,1016.75\n543,332,0.125,20,1000,1020.125\n10,0,0,0,1001,1001.5\n")
	tab, s := ingestPath(t, gen1)
	checkColumns(t, &s)
	if tab.Info.SourceFormat != "lmbench" || !strings.Contains(tab.Info.ToolVersion, "gen 1") || !tab.Info.EpochClock {
		t.Errorf("info %+v", tab.Info)
	}
	if s.Len() != 3 || s.IssueNs[0] != 1000e9 || s.TTFTNs[0] != 125e6 || s.CompleteNs[0] != 1020125e6 ||
		s.FullTokens[0] != 332 || s.InTokens[0] != 543 || s.IssueNs[1] != 1000.5e9 || s.TTFTNs[1] != 250e6 ||
		!s.Failed[2] || s.FailureKind[2] != core.FailError || s.HasFirstToken[2] || len(s.Turn) != 0 && s.Turn[0] != -1 {
		t.Errorf("gen 1 columns: issue %v ttft %v end %v tokens %v failed %v", s.IssueNs, s.TTFTNs, s.CompleteNs, s.FullTokens, s.Failed)
	}
	gen2 := writeTemp(t, dir, "g2/b.csv", lmbenchGen2+"\n"+lmbenchRowGen2(76, 20, 0.0625, 0.5, 7, 2, 2000)+"\n"+
		lmbenchRowGen2(76, 20, 0.125, 0.5, 7, 1, 1990)+"\n")
	tab, s = ingestPath(t, gen2)
	if !strings.Contains(tab.Info.ToolVersion, "gen 2") || s.Len() != 2 || s.ConversationID[0] != "7" || s.Turn[0] != 1 || s.Turn[1] != 2 ||
		s.TTFTNs[1] != 62.5e6 || s.FullTokens[1] != 20 || tab.Summary.Mode != "agentic" {
		t.Errorf("gen 2: %+v; conv %v turn %v ttft %v", tab.Info, s.ConversationID, s.Turn, s.TTFTNs)
	}
}

// TestLMBenchMalformed: a bad row is counted at its line and column and
// the others read; a header without a required column is refused naming
// the file, line and column.
func TestLMBenchMalformed(t *testing.T) {
	good1, good2 := "76,20,0.0625,0.5,100,100.5625", "76,20,0.0625,0.5,101,101.5625"
	for _, tc := range []struct {
		name, row string
		want      string
		samples   int
	}{
		{"ttft not a number", "76,20,fast,0.5,100.5,101", `3: field "ttft": unexpected field type`, 2},
		{"launch empty", "76,20,0.1,0.5,,101", `3: field "launch_time": required field missing`, 2},
		{"tokens fractional", "76,20.5,0.1,0.5,100.5,101", `3: field "generation_tokens": unexpected field type`, 3},
		{"finish before first token", "76,20,0.1,0.5,100.5,100.5", `3: field "finish_time": unexpected field type`, 3},
		{"infinite finish", "76,20,0.1,0.5,100.5,inf", `3: field "finish_time": unexpected field type`, 2},
		{"short row", "76,20,0.1", `3: field "launch_time": required field missing`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "run.csv", lmbenchGen1+"\n"+good1+"\n"+tc.row+"\n"+good2+"\n")
			checkOneProblem(t, path, tc.samples, path+":"+tc.want)
		})
	}
	// A cut last row is a truncated log.
	path := writeTemp(t, t.TempDir(), "run.csv", lmbenchGen1+"\n"+good1+"\n76,20,0.1")
	tab, s := ingestPath(t, path)
	if s.Len() != 1 || !tab.Info.Partial || !strings.Contains(warningsOf(tab), path+":3: truncated last line") {
		t.Errorf("cut: %d samples, partial %v, %q", s.Len(), tab.Info.Partial, warningsOf(tab))
	}
	// A header naming the format's columns but not finish_time's is no
	// LMBenchmark CSV the reader can use.
	path = writeTemp(t, t.TempDir(), "run.csv", "prompt_tokens,generation_tokens,ttft,launch_time,finish\n1,2,3,4,5\n")
	run := &contract.Run{Dir: t.TempDir(), EventsPath: path, Format: contract.FormatLMBench, Part: -1}
	var d contract.Decoded
	if _, err := (foreign.LMBenchReader{}).Read(context.Background(), run, contract.IngestOptions{}, &d); err == nil ||
		!strings.Contains(err.Error(), path+":1: LMBenchmark CSV header lacks column \"finish_time\"") {
		t.Errorf("err %v", err)
	}
}

// FuzzLMBenchRow: any row between two valid ones: no panic, every column
// one entry per sample, problems on the input's lines, the valid rows
// read.
func FuzzLMBenchRow(f *testing.F) {
	for _, s := range []string{"76,20,0.1,0.5,100.5,101", ",,,,,", "1e999,1,1,1,1,1", "a,b", "-1,-1,-1,-1,-1,-1", `"1",2,3,4,5,6,7,8,9`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, row []byte) {
		row = bytes.ReplaceAll(bytes.ReplaceAll(row, []byte("\n"), nil), []byte("\r"), nil)
		body := lmbenchGen1 + "\n76,20,0.0625,0.5,100,100.5625\n" + string(row) + "\n76,20,0.0625,0.5,101,101.5625\n"
		checkNeighboursKept(t, dir, "run.csv", body, contract.FormatLMBench, 2, 4)
	})
}
