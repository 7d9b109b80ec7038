package contract

import (
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// plantedTable is a Loaded of three samples planted to hit every null and
// every optional column: sample 0 completed with a first token, 1 failed
// with an HTTP code before any token (no first token, no completion), 2
// an agentic turn with an odd uuid, input and reasoning tokens.
func plantedTable() *Loaded {
	l := &Loaded{}
	l.Samples = core.Samples{
		IssueNs: []int64{100, 200, 300}, LastIssueNs: []int64{100, 250, 300}, LastEventNs: []int64{190, 260, 390},
		HasFirstToken: []bool{true, false, true}, FirstTokenNs: []int64{120, 0, 310}, TTFTNs: []int64{20, 0, 10},
		WarmTTFT: []bool{true, false, false}, FirstTokenSeq: []int64{4, -1, 9},
		HasComplete: []bool{true, false, true}, CompleteNs: []int64{190, 0, 390}, LatencyNs: []int64{90, 0, 90},
		CompleteSeq: []int64{5, -1, 10}, OutTokens: []int64{7, -1, 3}, FullTokens: []int64{-1, -1, 12},
		Failed: []bool{false, true, false}, Retries: []int32{0, 1, 0},
		FailureKind:    []core.FailureKind{core.FailNone, core.FailHTTP, core.FailNone},
		ConversationID: []string{"", "", "conv-1"}, Turn: []int32{-1, -1, 2}, FailCode: []int32{0, 503, 0},
		InTokens: []int64{-1, -1, 40}, ReasoningTokens: []int64{-1, -1, 5},
	}
	l.TextBytes = []int64{30, -1, 11}
	l.Keys = [][16]byte{{0xab, 0xcd}, {0x01}, {}}
	l.Ext = map[int32]string{2: "odd-uuid"}
	l.DatasetIndex = []int64{4, -1, 0}
	l.Summary.Samples = 3
	l.Info.Model = "planted"
	return l
}

// TestTablePlanted: every column of the table holds the planted value,
// null exactly where the sample has none, and Samples() gives the
// planted columns back.
func TestTablePlanted(t *testing.T) {
	l := plantedTable()
	tab := l.Table()
	if tab.Rows != 3 || tab.Summary.Samples != 3 || tab.Info.Model != "planted" {
		t.Fatalf("rows %d summary %+v info %+v", tab.Rows, tab.Summary, tab.Info)
	}
	const null = "null"
	want := map[int][3]any{
		ColIssueOrder:      {int64(0), int64(1), int64(2)},
		ColUUID:            {"abcd0000000000000000000000000000", "01000000000000000000000000000000", "odd-uuid"},
		ColLastIssueNs:     {int64(100), int64(250), int64(300)},
		ColFirstTokenNs:    {int64(120), null, int64(310)},
		ColTTFTNs:          {int64(20), null, int64(10)},
		ColWarmTTFT:        {true, false, false},
		ColFirstTokenSeq:   {int64(4), null, int64(9)},
		ColCompleteNs:      {int64(190), null, int64(390)},
		ColLatencyNs:       {int64(90), null, int64(90)},
		ColCompleteSeq:     {int64(5), null, int64(10)},
		ColFailed:          {false, true, false},
		ColOutputTextBytes: {int64(30), null, int64(11)},
		ColOutputTokens:    {int64(7), null, int64(3)},
		ColFullTokens:      {null, null, int64(12)},
		ColConversationID:  {null, null, "conv-1"},
		ColTurn:            {null, null, int32(2)},
		ColDatasetIndex:    {int64(4), null, int64(0)},
		ColRetries:         {int32(0), int32(1), int32(0)},
		ColFailureKind:     {null, "http", null},
		ColFailureCode:     {null, int32(503), null},
		ColInputTokens:     {null, null, int64(40)},
		ColReasoningTokens: {null, null, int64(5)},
	}
	for c, vals := range want {
		col := &tab.Columns[c]
		for i, v := range vals {
			var got any = null
			if col.IsValid(i) {
				switch Schema[c].Type {
				case TypeInt64:
					got = col.Int64s[i]
				case TypeInt32:
					got = col.Int32s[i]
				case TypeBool:
					got = col.Bools[i]
				case TypeString:
					got = col.String(i)
				}
			}
			if got != v {
				t.Errorf("%s row %d: %v, want %v", Schema[c].Name, i, got, v)
			}
		}
	}
	if tab.UUID(2) != "odd-uuid" || tab.DatasetIndex(0) != 4 || tab.DatasetIndex(1) != -1 {
		t.Errorf("accessors: uuid %q, dataset indices %d %d", tab.UUID(2), tab.DatasetIndex(0), tab.DatasetIndex(1))
	}
	if got := tab.Samples(); !reflect.DeepEqual(got, l.Samples) {
		t.Errorf("Samples():\n got %+v\nwant %+v", got, l.Samples)
	}
}

// TestFillTableReuses: filling a table again from a run of the same size
// allocates nothing (the column buffers are reused), and gives the same
// table.
func TestFillTableReuses(t *testing.T) {
	l := plantedTable()
	tab := l.Table()
	first := *tab
	first.Columns = [NumCols]Column{}
	for c := range tab.Columns {
		first.Columns[c] = Column{Int64s: append([]int64(nil), tab.Columns[c].Int64s...), Int32s: append([]int32(nil), tab.Columns[c].Int32s...),
			Bools: append([]bool(nil), tab.Columns[c].Bools...), Offsets: append([]int32(nil), tab.Columns[c].Offsets...),
			Bytes: append([]byte(nil), tab.Columns[c].Bytes...), Valid: append([]bool(nil), tab.Columns[c].Valid...)}
	}
	if n := testing.AllocsPerRun(20, func() { l.FillTable(tab) }); n != 0 {
		t.Errorf("FillTable into a used table: %.0f allocations, want 0", n)
	}
	if !reflect.DeepEqual(tab.Columns, first.Columns) {
		t.Error("the refilled table differs from the first")
	}
}
