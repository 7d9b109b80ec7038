package archtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// moduleRoot is the directory of go.mod above this package, and the module
// path it declares.
func moduleRoot(t *testing.T) (root, module string) {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil {
			for _, l := range strings.Split(string(b), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
					return dir, strings.TrimSpace(m)
				}
			}
			t.Fatalf("%s/go.mod declares no module", dir)
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("go.mod not found")
		}
		dir = filepath.Dir(dir)
	}
}

// TestArchitecture checks every package of the module against
// docs/architecture.txt.
func TestArchitecture(t *testing.T) {
	root, module := moduleRoot(t)
	a, err := Parse(filepath.Join(root, "docs", "architecture.txt"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := Packages(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 15 {
		t.Fatalf("only %d packages found under %s", len(pkgs), root)
	}
	for _, e := range a.Check(module, pkgs) {
		t.Error(e)
	}
}

// TestCheckFindsViolations: the checker reports each kind of violation on
// a hand-made module (so a passing TestArchitecture means something).
func TestCheckFindsViolations(t *testing.T) {
	a := &Architecture{
		Rules:  map[string][]string{"core": {"core/stats"}, "core/stats": nil, "sinks/...": {"core", "sinks/..."}},
		Leaves: []string{"internal/atomicfile"},
		Std:    map[string][]string{"core": {"math", "strings"}},
	}
	const mod = "example.com/m"
	pkgs := []Package{
		{Path: "core", Imports: map[string]string{"math": "core/a.go", "encoding/json": "core/b.go",
			mod + "/internal/atomicfile": "core/c.go", "gonum.org/v1/gonum/stat": "core/d.go"}},
		{Path: "core/stats", Imports: map[string]string{mod + "/core": "core/stats/x.go"}},
		{Path: "sinks/report", Imports: map[string]string{mod + "/core": "sinks/report/r.go",
			mod + "/internal/atomicfile": "sinks/report/r.go", mod + "/sweep": "sinks/report/s.go"}},
		{Path: "internal/atomicfile", Imports: map[string]string{"os": "a.go", mod + "/core": "a.go"}},
		{Path: "sweep", Imports: map[string]string{}},
	}
	got := strings.Join(a.Check(mod, pkgs), "\n")
	for _, want := range []string{
		"core/b.go imports encoding/json",                   // std outside the list
		"core/c.go imports internal/atomicfile",             // a leaf inside core
		"core/d.go imports gonum.org/v1/gonum/stat",         // another module in a std-restricted package
		"core/stats/x.go imports core",                      // against the direction
		"sinks/report/s.go imports sweep",                   // not in the rule
		"a.go imports core: internal/atomicfile is a leaf",  // a leaf importing ours
		"sweep: no rule in the architecture file covers it", // uncovered package
	} {
		if !strings.Contains(got, want) {
			t.Errorf("violations lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "core/a.go") || strings.Contains(got, "sinks/report/r.go") {
		t.Errorf("allowed imports reported:\n%s", got)
	}
}

// TestPackagesSkipsNestedModules: a directory with its own go.mod (a
// patched copy of a dependency in internal/third_party/, used through a replace
// directive) is another module, not packages of this one; its
// subdirectories neither.
func TestPackagesSkipsNestedModules(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n")
	write("core/a.go", "package core\n")
	write("third_party/dep/go.mod", "module example.com/dep\n")
	write("third_party/dep/dep.go", "package dep\n")
	write("third_party/dep/sub/sub.go", "package sub\n")
	pkgs, err := Packages(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pkgs {
		got = append(got, p.Path)
	}
	if strings.Join(got, " ") != "core" {
		t.Errorf("packages %q, want [core]", got)
	}
}
