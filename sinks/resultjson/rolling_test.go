package resultjson

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/core/stats"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// TestRollingTableAppendsItsTree: the rolling cells written directly are
// the bytes pyjson writes for their value tree, at every depth, empty or
// not, with every verdict.
func TestRollingTableAppendsItsTree(t *testing.T) {
	all := []stats.Verdict{stats.VerdictSteady, stats.VerdictUp, stats.VerdictDown, stats.VerdictInsufficient}
	var cells []core.RollingCell
	for i := range 9 {
		var v [5]stats.Verdict
		for j := range v {
			v[j] = all[(i+j)%len(all)]
		}
		cells = append(cells, core.NewRollingCell(i, i+4+i%3, v))
	}
	for _, cs := range [][]core.RollingCell{nil, cells[:1], cells} {
		checkAppendsItsTree(t, fmt.Sprintf("%d cells", len(cs)), newRollingTable(cs))
	}
}

// TestSuperPassTableAppendsItsTree: the per_super_pass rows written
// directly are the bytes pyjson writes for their value tree, at every
// depth, with and without TTFT and TPOT, NaN and large values included.
func TestSuperPassTableAppendsItsTree(t *testing.T) {
	var rows []core.SuperPassDigest
	for i := range 7 {
		d := core.SuperPassDigest{I: i, NIssued: 20 + i, OutTokens: int64(1000 * i), FirstIssueNs: 1e18 + int64(i),
			LastIssueNs: 2e9 * int64(i), LastEventNs: -1}
		for m := range d.Value {
			d.Value[m], d.Has[m] = float64(i*m)/3+1e-5, i%3 != m%3
		}
		if i == 4 {
			d.Value[0] = math.NaN()
		}
		rows = append(rows, d)
	}
	for _, rs := range [][]core.SuperPassDigest{nil, rows[:1], rows} {
		checkAppendsItsTree(t, fmt.Sprintf("%d rows", len(rs)), &superPassTable{rows: rs})
	}
}

// checkAppendsItsTree fails unless tab, nested at several depths, is
// marshalled and written as the bytes of its value tree (written at each
// depth in turn, so its fragments are remade for each level).
func checkAppendsItsTree(t *testing.T, what string, tab interface {
	pyjson.ListAppender
	pyjson.Marshaler
}) {
	t.Helper()
	for _, depth := range []int{0, 1, 3, 40} {
		direct, tree := any(tab), tab.PyJSON()
		for range depth {
			direct, tree = pyjson.Object{{Key: "k", Value: direct}}, pyjson.Object{{Key: "k", Value: tree}}
		}
		want := pyjson.Marshal(tree)
		if got := pyjson.Marshal(direct); string(got) != string(want) {
			t.Fatalf("%s at depth %d:\n got %s\nwant %s", what, depth, got, want)
		}
		var w strings.Builder
		if err := pyjson.Write(&w, direct); err != nil || w.String() != string(want) {
			t.Fatalf("%s at depth %d written (%v):\n got %s\nwant %s", what, depth, err, w.String(), want)
		}
	}
}
