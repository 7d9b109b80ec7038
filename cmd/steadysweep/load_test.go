package main

import (
	"context"
	"io"
	"testing"
)

// TestLoadKeepsTableOnlyWhenAsked: a command that exports the columns
// (ingest: keepTable) gets the run's Arrow table with every sample; the
// others keep the samples but not the uuids and text lengths only the
// table reads, and table says so instead of failing later.
func TestLoadKeepsTableOnlyWhenAsked(t *testing.T) {
	for _, keep := range []bool{false, true} {
		lf := loadFlags{tokenizer: "words", noCache: true, keepTable: keep}
		l, err := lf.loader(io.Discard).LoadRun(context.Background(), goodRun)
		if err != nil {
			t.Fatal(err)
		}
		if l.Samples.Len() == 0 {
			t.Fatalf("keepTable %v: no samples", keep)
		}
		tab, err := l.Table()
		if !keep {
			if err == nil || l.Columns != nil {
				t.Errorf("keepTable false: table %v, err %v, want no columns kept", tab, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("keepTable true: %v", err)
		}
		if n := tab.Rows; n != l.Samples.Len() || tab.UUID(0) == "" {
			t.Errorf("keepTable true: %d rows (first uuid %q), want %d samples with uuids", n, tab.UUID(0), l.Samples.Len())
		}
	}
}
