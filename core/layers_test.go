package core_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/steadysweep/steadysweep"

// allowedImports is the dependency direction of DEVELOPERS.md
// (core ← columnar, sinks ← sweep ← cmd): for each top-level package, the
// top-level packages of ours its non-test files may import. A package may
// always import its own sub-packages.
var allowedImports = map[string][]string{
	"core":     {},
	"columnar": {"core"},
	"corpora":  {"core", "columnar"},
	"sinks":    {"core", "columnar"},
	"sweep":    {"core", "columnar", "corpora", "sinks"},
	"bench":    {"core", "columnar", "corpora", "sinks", "sweep"},
	"cmd":      {"core", "columnar", "corpora", "sinks", "sweep"},
}

// TestLayering parses every non-test Go file of the module and fails on an
// import that goes against the dependency direction — in particular on
// anything of ours imported by core, which must stay a pure library.
func TestLayering(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found above core/: %v", err)
	}
	fset := token.NewFileSet()
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		top := strings.Split(filepath.ToSlash(rel), "/")[0]
		allowed, known := allowedImports[top]
		if !known {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !strings.HasPrefix(p, modulePath+"/") {
				continue
			}
			target := strings.Split(strings.TrimPrefix(p, modulePath+"/"), "/")[0]
			if target == top {
				continue
			}
			ok := false
			for _, a := range allowed {
				ok = ok || a == target
			}
			if !ok {
				t.Errorf("%s imports %s: %s may import only %v of ours", rel, p, top, allowed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no Go files checked: the walk is broken")
	}
}
