package core_test

// TestParity walks every run of the shared parity corpus
// (shared/parity/runs/NAME) and compares the detector's reference-mode
// output with the Python reference's recorded outputs
// (shared/parity/expected): NAME.json (library defaults →
// ReferenceParams), NAME.nomindur.json (MinDuration false), and the CLI's
// NAME.cli.stdout.txt / NAME.cli.json (the agentic run takes the NATL
// path). JSON trees are compared type-aware: an int must be an int, a
// float a float within 1e-9 relative, every other value equal, keys in
// the same order.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// sharedDir returns ../shared relative to the module root, or skips.
func sharedDir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t, "parity/runs")
}

// jsonNode is a decoded JSON value that keeps key order and number kinds.
type jsonNode struct {
	kind  byte // 'o' object, 'a' array, 'i' int, 'f' float, 's' string, 'b' bool, 'n' null
	keys  []string
	elems []*jsonNode
	str   string // string value, number literal, or bool text
}

func parseJSON(data []byte) (*jsonNode, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	n, err := parseNode(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return n, nil
}

func parseNode(d *json.Decoder) (*jsonNode, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		n := &jsonNode{kind: 'a'}
		if v == '{' {
			n.kind = 'o'
		}
		for d.More() {
			if n.kind == 'o' {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			e, err := parseNode(d)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, e)
		}
		_, err := d.Token()
		return n, err
	case json.Number:
		if strings.ContainsAny(v.String(), ".eE") {
			return &jsonNode{kind: 'f', str: v.String()}, nil
		}
		return &jsonNode{kind: 'i', str: v.String()}, nil
	case string:
		return &jsonNode{kind: 's', str: v}, nil
	case bool:
		return &jsonNode{kind: 'b', str: fmt.Sprint(v)}, nil
	case nil:
		return &jsonNode{kind: 'n'}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// treeDiff compares got against want; it returns the mismatches and the
// paths of floats that are within tolerance but not bit-identical.
type treeDiff struct {
	mismatches []string
	inexact    []string
	floats     int
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

func (td *treeDiff) compare(path string, got, want *jsonNode) {
	if got.kind != want.kind {
		td.mismatches = append(td.mismatches, fmt.Sprintf("%s: kind %c (%s), want %c (%s)", path, got.kind, got.str, want.kind, want.str))
		return
	}
	switch got.kind {
	case 'o':
		if strings.Join(got.keys, ",") != strings.Join(want.keys, ",") {
			td.mismatches = append(td.mismatches, fmt.Sprintf("%s: keys %v, want %v", path, got.keys, want.keys))
			return
		}
		for i, k := range got.keys {
			td.compare(path+"."+k, got.elems[i], want.elems[i])
		}
	case 'a':
		if len(got.elems) != len(want.elems) {
			td.mismatches = append(td.mismatches, fmt.Sprintf("%s: %d elements, want %d", path, len(got.elems), len(want.elems)))
			return
		}
		for i := range got.elems {
			td.compare(fmt.Sprintf("%s[%d]", path, i), got.elems[i], want.elems[i])
		}
	case 'f':
		td.floats++
		var g, w float64
		fmt.Sscan(got.str, &g)
		fmt.Sscan(want.str, &w)
		if g == w && math.Signbit(g) == math.Signbit(w) {
			return
		}
		if math.Abs(g-w) <= 1e-9*math.Max(math.Abs(g), math.Abs(w)) {
			td.inexact = append(td.inexact, path)
			return
		}
		td.mismatches = append(td.mismatches, fmt.Sprintf("%s: %s, want %s", path, got.str, want.str))
	default:
		if got.str != want.str {
			td.mismatches = append(td.mismatches, fmt.Sprintf("%s: %q, want %q", path, got.str, want.str))
		}
	}
}

// fieldClasses collapses paths to field names with indices replaced by [*].
func fieldClasses(paths []string) []string {
	seen := map[string]int{}
	for _, p := range paths {
		seen[indexRE.ReplaceAllString(p, "[*]")]++
	}
	var out []string
	for k, n := range seen {
		out = append(out, fmt.Sprintf("%s×%d", k, n))
	}
	sort.Strings(out)
	return out
}

func compareJSON(t *testing.T, label string, got []byte, wantFile string) {
	t.Helper()
	want, err := os.ReadFile(wantFile)
	if err != nil {
		t.Errorf("%s: %v", label, err)
		return
	}
	want = bytes.TrimSuffix(want, []byte("\n"))
	gt, err := parseJSON(got)
	if err != nil {
		t.Errorf("%s: our JSON does not parse: %v", label, err)
		return
	}
	wt, err := parseJSON(want)
	if err != nil {
		t.Errorf("%s: expected JSON does not parse: %v", label, err)
		return
	}
	var td treeDiff
	td.compare("$", gt, wt)
	for i, m := range td.mismatches {
		if i == 20 {
			t.Errorf("%s: … %d mismatches in all", label, len(td.mismatches))
			break
		}
		t.Errorf("%s: %s", label, m)
	}
	t.Logf("%s: bytes identical %v; %d floats, %d within 1e-9 but not bit-exact %v; %d mismatches",
		label, bytes.Equal(got, want), td.floats, len(td.inexact), fieldClasses(td.inexact), len(td.mismatches))
}

func TestParity(t *testing.T) {
	shared := sharedDir(t)
	runs := parityRuns(t, shared)
	expected := filepath.Join(shared, "parity", "expected")
	for _, dir := range runs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			s, info, err := decodeRun(dir)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			p := core.ReferenceParams()
			for _, variant := range []struct {
				suffix      string
				minDuration bool
			}{{".json", true}, {".nomindur.json", false}} {
				p.MinDuration = variant.minDuration
				// Library mode: the window path whatever the profile.
				r, err := core.AnalyzeLibrary(s, info, p)
				if err != nil {
					t.Fatalf("AnalyzeLibrary: %v", err)
				}
				compareJSON(t, name+variant.suffix, refJSON(t, r), filepath.Join(expected, name+variant.suffix))
			}
			// CLI mode: default params through Analyze (NATL for agentic).
			p.MinDuration = true
			r, err := core.NewRun(s, info).Analyze(p)
			if err != nil {
				t.Fatalf("Analyze: %v", err)
			}
			if cliJSON := filepath.Join(expected, name+".cli.json"); fileExists(cliJSON) {
				compareJSON(t, name+".cli.json", refJSON(t, r), cliJSON)
			} else {
				compareJSON(t, name+".json (cli)", refJSON(t, r), filepath.Join(expected, name+".json"))
			}
			want, err := os.ReadFile(filepath.Join(expected, name+".cli.stdout.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if got := refText(t, r); got != string(want) {
				t.Errorf("%s: text report differs:\n%s", name, firstDiff(got, string(want)))
			} else {
				t.Logf("%s: text report identical", name)
			}
			wantStderr, _ := os.ReadFile(filepath.Join(expected, name+".cli.stderr.txt"))
			if c := r.Caveat(); c != "" && !strings.HasPrefix(string(wantStderr), c+"\n\n") {
				t.Errorf("%s: caveat %q not at the start of the CLI stderr %q", name, c, wantStderr)
			} else if c == "" && strings.HasPrefix(string(wantStderr), "[profile:") {
				t.Errorf("%s: no caveat but the CLI printed %q", name, wantStderr)
			}
		})
	}
}

// parityRuns lists the run directories of the parity corpus.
func parityRuns(t *testing.T, shared string) []string {
	t.Helper()
	runs, err := filepath.Glob(filepath.Join(shared, "parity", "runs", "*"))
	if err != nil || len(runs) == 0 {
		t.Fatalf("no parity runs: %v", err)
	}
	return runs
}

func sortByKey(idx []int, key func(int) int64) {
	sort.SliceStable(idx, func(a, b int) bool { return key(idx[a]) < key(idx[b]) })
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got  %q\n want %q", i+1, gl, wl)
		}
	}
	return "(same lines, different ending)"
}
