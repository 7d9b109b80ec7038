package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"github.com/steadysweep/steadysweep/internal/pyjson"
)

// TestAnalyzeReferenceCLI runs `steadysweep analyze RUN --tokenizer words
// --compat reference --json FILE` on every run of the shared parity corpus
// and compares stdout, stderr and the exit code byte for byte with what the
// reference CLI printed (parity/expected/NAME.cli.{stdout,stderr}.txt,
// .cli.exit), and the JSON file with the reference's (.cli.json for the
// agentic NATL path, else NAME.json) number by number.
func TestAnalyzeReferenceCLI(t *testing.T) {
	shared := sharedtest.Dir(t, "parity/runs")
	runs, err := os.ReadDir(filepath.Join(shared, "parity", "runs"))
	if err != nil {
		t.Fatal(err)
	}
	expected := filepath.Join(shared, "parity", "expected")
	for _, e := range runs {
		name := e.Name()
		t.Run(name, func(t *testing.T) {
			jsonPath := filepath.Join(t.TempDir(), "steady_state.json")
			stdout, stderr, code := runCLI(t, "analyze", filepath.Join(shared, "parity", "runs", name),
				"--tokenizer", "words", "--compat", "reference", "--no-cache", "--json", jsonPath)
			wantCode, _ := strconv.Atoi(strings.TrimSpace(readFile(t, filepath.Join(expected, name+".cli.exit"))))
			if code != wantCode {
				t.Errorf("exit code %d, want %d (stderr %q)", code, wantCode, stderr)
			}
			if want := readFile(t, filepath.Join(expected, name+".cli.stdout.txt")); stdout != want {
				t.Errorf("stdout differs from the reference CLI:\ngot:\n%s\nwant:\n%s", stdout, want)
			}
			wantErr := strings.ReplaceAll(readFile(t, filepath.Join(expected, name+".cli.stderr.txt")), "<json>", jsonPath)
			if stderr != wantErr {
				t.Errorf("stderr %q, want %q", stderr, wantErr)
			}
			wantJSON := filepath.Join(expected, name+".cli.json")
			if _, err := os.Stat(wantJSON); err != nil {
				wantJSON = filepath.Join(expected, name+".json")
			}
			compareJSON(t, readFile(t, jsonPath), readFile(t, wantJSON))
		})
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compareJSON compares two JSON documents as trees: same keys in the same
// order, same types (an integer where the reference wrote an integer),
// equal strings and booleans, and floats within 1e-9 relative.
func compareJSON(t *testing.T, got, want string) {
	t.Helper()
	g, w := decodeOrdered(t, got), decodeOrdered(t, want)
	var diffs []string
	walkCompare("$", g, w, &diffs)
	for i, d := range diffs {
		if i == 10 {
			t.Errorf("… and %d more differences", len(diffs)-10)
			break
		}
		t.Error(d)
	}
}

func decodeOrdered(t *testing.T, s string) any {
	t.Helper()
	v, err := pyjson.Parse([]byte(s))
	if err != nil {
		t.Fatalf("decode JSON: %v", err)
	}
	return v
}

func walkCompare(path string, got, want any, diffs *[]string) {
	add := func(format string, args ...any) {
		*diffs = append(*diffs, path+": "+fmt.Sprintf(format, args...))
	}
	switch w := want.(type) {
	case pyjson.Object:
		g, ok := got.(pyjson.Object)
		if !ok || !slices.Equal(keysOf(g), keysOf(w)) {
			add("keys %v, want %v", keysOf(got), keysOf(w))
			return
		}
		for i, f := range w {
			walkCompare(path+"."+f.Key, g[i].Value, f.Value, diffs)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			add("got %v, want an array of %d", got, len(w))
			return
		}
		for i := range w {
			walkCompare(path+"["+strconv.Itoa(i)+"]", g[i], w[i], diffs)
		}
	case json.Number:
		g, ok := got.(json.Number)
		if !ok {
			add("got %v, want number %s", got, w)
			return
		}
		wInt := !strings.ContainsAny(string(w), ".eEIN")
		gInt := !strings.ContainsAny(string(g), ".eEIN")
		if wInt != gInt {
			add("got %s, want %s (integer vs float)", g, w)
			return
		}
		gf, _ := strconv.ParseFloat(string(g), 64)
		wf, _ := strconv.ParseFloat(string(w), 64)
		if gf != wf && math.Abs(gf-wf) > 1e-9*math.Max(math.Abs(gf), math.Abs(wf)) {
			add("got %s, want %s", g, w)
		}
	default:
		if got != want {
			add("got %v, want %v", got, want)
		}
	}
}

func keysOf(v any) []string {
	o, _ := v.(pyjson.Object)
	keys := make([]string, len(o))
	for i, f := range o {
		keys[i] = f.Key
	}
	return keys
}
