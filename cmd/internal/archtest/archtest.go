// Package archtest checks the module's imports against its architecture
// file, docs/architecture.txt (its format is described at its top): every
// package's non-test imports of ours must be allowed by the package's
// rule, leaves may import only the standard library, and a package with a
// "std" list only those standard packages. The check runs as this
// package's test over the whole module.
package archtest

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Architecture is a parsed architecture file.
type Architecture struct {
	// Rules map a package pattern to the patterns it may import.
	Rules map[string][]string
	// Leaves are the standard-library-only utility packages.
	Leaves []string
	// Std maps a package to the only standard-library packages it may import.
	Std map[string][]string
}

// Parse reads an architecture file.
func Parse(path string) (*Architecture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a := &Architecture{Rules: map[string][]string{}, Std: map[string][]string{}}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		bad := func(why string) error { return fmt.Errorf("%s:%d: %s", path, line, why) }
		switch fields[0] {
		case "leaf":
			a.Leaves = append(a.Leaves, fields[1:]...)
		case "rule":
			if len(fields) < 3 || fields[2] != "->" {
				return nil, bad(`want "rule PATTERN -> PATTERN..."`)
			}
			if _, dup := a.Rules[fields[1]]; dup {
				return nil, bad("second rule for " + fields[1])
			}
			a.Rules[fields[1]] = fields[3:]
		case "std":
			if len(fields) < 2 || !strings.HasSuffix(fields[1], ":") {
				return nil, bad(`want "std PACKAGE: IMPORT..."`)
			}
			a.Std[strings.TrimSuffix(fields[1], ":")] = fields[2:]
		default:
			return nil, bad("unknown directive " + strconv.Quote(fields[0]))
		}
	}
	return a, sc.Err()
}

// matches reports whether pkg matches pattern (a path, or a path/... tree).
func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// rule returns the pattern of the rule governing pkg (the longest match).
func (a *Architecture) rule(pkg string) (string, bool) {
	best, found := "", false
	for pattern := range a.Rules {
		if matches(pattern, pkg) && (!found || len(pattern) > len(best)) {
			best, found = pattern, true
		}
	}
	return best, found
}

// Package is one package of the module: its path relative to the module
// root and the imports of its non-test files, each with the file that
// makes it.
type Package struct {
	Path    string
	Imports map[string]string // import path → a file importing it
}

// Packages lists the module's packages under root (directories holding
// non-test Go files; testdata, hidden directories and nested modules
// skipped).
func Packages(root string) ([]Package, error) {
	byDir := map[string]*Package{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			// A directory with its own go.mod is another module (the
			// patched copies in internal/third_party/), as for go build ./...
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		p := byDir[rel]
		if p == nil {
			p = &Package{Path: rel, Imports: map[string]string{}}
			byDir[rel] = p
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if _, seen := p.Imports[ip]; !seen {
				file, _ := filepath.Rel(root, path)
				p.Imports[ip] = filepath.ToSlash(file)
			}
		}
		return nil
	})
	out := make([]Package, 0, len(byDir))
	for _, p := range byDir {
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// isStd reports whether an import path is the standard library's (its
// first element has no dot).
func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// Check returns every violation of a by the packages pkgs of the module
// whose import path is module.
func (a *Architecture) Check(module string, pkgs []Package) []string {
	var errs []string
	for _, p := range pkgs {
		leaf := slices.Contains(a.Leaves, p.Path)
		pattern, ruled := a.rule(p.Path)
		if !ruled && !leaf {
			errs = append(errs, fmt.Sprintf("%s: no rule in the architecture file covers it", p.Path))
			continue
		}
		std, restricted := a.Std[p.Path]
		inCore := matches("core/...", p.Path)
		for _, ip := range sortedKeys(p.Imports) {
			file := p.Imports[ip]
			ours, isOurs := strings.CutPrefix(ip, module+"/")
			switch {
			case isOurs && leaf:
				errs = append(errs, fmt.Sprintf("%s imports %s: %s is a leaf (standard library only)", file, ours, p.Path))
			case isOurs && slices.Contains(a.Leaves, ours) && !inCore:
				// a leaf utility: allowed outside core
			case isOurs && !allowed(a.Rules[pattern], ours):
				errs = append(errs, fmt.Sprintf("%s imports %s: %s may import only %v of ours (rule %s)",
					file, ours, p.Path, a.Rules[pattern], pattern))
			case !isOurs && !isStd(ip) && (leaf || restricted):
				errs = append(errs, fmt.Sprintf("%s imports %s: %s may import only the standard library", file, ip, p.Path))
			case !isOurs && isStd(ip) && restricted && !slices.Contains(std, ip):
				errs = append(errs, fmt.Sprintf("%s imports %s: %s may import only %v of the standard library",
					file, ip, p.Path, std))
			}
		}
	}
	return errs
}

func allowed(patterns []string, pkg string) bool {
	for _, pat := range patterns {
		if matches(pat, pkg) {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
