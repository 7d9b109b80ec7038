package endpoints

import (
	"bytes"
	"context"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
)

// words counts whitespace words (a counter for the decode).
type words struct{}

func (words) Count(s string) int { return len(bytes.Fields([]byte(s))) }
func (words) Identity() string   { return "test-words" }

// TestColumnsCutFromSlabs: a decode whose columns are cut from slabs (a
// slab for every reserve, the threshold lowered to 0) gives the columns
// of one that allocates them one by one (no slab), on the streamed
// layout; and cut columns do not overlap:
// an append past one's capacity moves it, its neighbour untouched.
func TestColumnsCutFromSlabs(t *testing.T) {
	var b bytes.Buffer
	if _, err := benchlog.StreamedShape(&b, 2<<20, benchlog.TwoChunks); err != nil {
		t.Fatal(err)
	}
	decode := func(min int) *contract.Decoded {
		defer func(old int) { slabMin = old }(slabMin)
		slabMin = min
		var d contract.Decoded
		if err := DecodeReader(context.Background(), bytes.NewReader(b.Bytes()), DecodeOptions{Name: "events.jsonl", Counter: words{}, Workers: 2}, &d); err != nil {
			t.Fatal(err)
		}
		d.Index = scan.UUIDIndex{}
		return &d
	}
	want, got := decode(1<<62), decode(0)
	if want.Samples.Len() < 100 {
		t.Fatalf("fixture: %d samples", want.Samples.Len())
	}
	if !reflect.DeepEqual(got.Samples, want.Samples) || !reflect.DeepEqual(got.Keys, want.Keys) || !reflect.DeepEqual(got.TextBytes, want.TextBytes) {
		t.Error("columns cut from slabs differ from columns allocated one by one")
	}

	sl := &columnSlab{b: make([]byte, 1<<10)}
	a := carve(sl, []int64{1, 2}, 4)
	c := carve(sl, []bool{true}, 3)
	k := carve(sl, [][16]byte{{9}}, 2)
	if !reflect.DeepEqual(a, []int64{1, 2}) || cap(a) != 4 || !reflect.DeepEqual(c, []bool{true}) || cap(c) != 3 || k[0][0] != 9 || cap(k) != 2 {
		t.Fatalf("carved %v (cap %d), %v (cap %d), %v (cap %d)", a, cap(a), c, cap(c), k, cap(k))
	}
	a = append(a, 3, 4, 5) // past its capacity: a new array
	c = append(c, false, true)
	if !reflect.DeepEqual(a, []int64{1, 2, 3, 4, 5}) || !reflect.DeepEqual(c, []bool{true, false, true}) || k[0][0] != 9 {
		t.Errorf("after appends: %v, %v, %v", a, c, k)
	}
	if full := carve(&columnSlab{b: make([]byte, 8)}, []int64{7}, 4); !reflect.DeepEqual(full, []int64{7}) || cap(full) != 4 {
		t.Errorf("a slab without room: %v (cap %d)", full, cap(full))
	}
}
