package foreign_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/foreign"
)

// guidellmYAMLAliased is a GuideLLM YAML report whose args.data anchor
// holds items scalars and is aliased aliases times (issue 30: a 20 MiB
// report with one anchor aliased 100× killed analyze and discovery).
func guidellmYAMLAliased(items, aliases int) string {
	var b strings.Builder
	b.WriteString("args:\n  data: &big\n")
	for i := range items {
		fmt.Fprintf(&b, "    - item%d\n", i)
	}
	b.WriteString("copies:\n")
	for range aliases {
		b.WriteString("  - *big\n")
	}
	b.WriteString("benchmarks:\n  - requests:\n      successful: []\n")
	return b.String()
}

// TestYAMLAliasBudget: aliases that expand beyond the budget are refused
// by name before anything is expanded (the 5 M-node expansion here, the
// nested "billion laughs"); a report whose aliases stay small still reads.
func TestYAMLAliasBudget(t *testing.T) {
	dir := t.TempDir()
	laughs := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 9; i++ {
		prev, cur := string(rune('a'+i-1)), string(rune('a'+i))
		laughs += cur + ": &" + cur + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
	}
	laughs += "benchmarks: [*i]\n"
	for _, tc := range []struct {
		name, doc string
		refused   bool
	}{
		{"anchor aliased 100 times", guidellmYAMLAliased(50_000, 100), true},
		{"billion laughs", laughs, true},
		{"alias within budget", guidellmYAMLAliased(100, 3), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".yaml")
			if err := os.WriteFile(path, []byte(tc.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			n, err := foreign.GuideLLMBenchmarks(context.Background(), path)
			if tc.refused {
				if !errors.Is(err, foreign.ErrYAMLAliases) || !strings.Contains(err.Error(), path) {
					t.Fatalf("%d benchmarks, err %v; want ErrYAMLAliases naming the file", n, err)
				}
				return
			}
			if err != nil || n != 1 {
				t.Fatalf("%d benchmarks, err %v; want 1", n, err)
			}
		})
	}
}
