package tokenizer

import "testing"

func TestMergeTable(t *testing.T) {
	tab := newMergeTable(1000)
	for i := uint64(0); i < 1000; i++ {
		tab.set(i<<32|(i*7), i<<32|(i+1))
	}
	tab.set(5<<32|35, 99) // a repeated pair keeps the last value, as in HF
	for i := uint64(0); i < 1000; i++ {
		want := i<<32 | (i + 1)
		if i == 5 {
			want = 99
		}
		if got := tab.get(i<<32 | (i * 7)); got != want {
			t.Fatalf("get(%d) = %d, want %d", i, got, want)
		}
		if got := tab.get(i<<32 | (i*7 + 1)); got != noMerge {
			t.Fatalf("get of an absent pair = %d, want noMerge", got)
		}
	}
}
