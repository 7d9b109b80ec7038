package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goodRun is the small committed run the CLI tests analyse.
var goodRun = filepath.Join("..", "..", "testdata", "goodrun")

// tryRun runs the command line in-process and returns what it printed
// and the error run returned.
func tryRun(args ...string) (stdout, stderr string, err error) {
	var out bytes.Buffer
	stderr, err = runTo(&out, args...)
	return out.String(), stderr, err
}

// runTo runs the command line in-process with stdout on w (a terminal, a
// pipe or /dev/null: what the report adapts to) and returns stderr and
// the error run returned.
func runTo(w io.Writer, args ...string) (stderr string, err error) {
	var errb bytes.Buffer
	err = run(context.Background(), args, w, &errb)
	return errb.String(), err
}

// runCLI runs the command line in-process and returns stdout, stderr and
// the exit code main would give (stderr ends with the line main prints
// for an error).
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	stdout, stderr, err := tryRun(args...)
	var last strings.Builder
	code = exitCode(err, &last)
	return stdout, stderr + last.String(), code
}

// mustRun runs the command line in-process and returns what it printed;
// a command that fails ends the test with its error and stderr, so a test
// of what a good run prints never reads the output of a failed one.
func mustRun(t testing.TB, args ...string) (stdout, stderr string) {
	t.Helper()
	stdout, stderr, err := tryRun(args...)
	if err != nil {
		t.Fatalf("steadysweep %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return stdout, stderr
}

// mustAnalyze is mustRun of `analyze DIR` offline: the words tokenizer
// (no download) and no cache (no state shared between tests), then extra.
func mustAnalyze(t testing.TB, dir string, extra ...string) (stdout, stderr string) {
	t.Helper()
	return mustRun(t, append([]string{"analyze", dir, "--tokenizer", "words", "--no-cache"}, extra...)...)
}

// readJSON decodes the JSON file at path into v, failing the test when
// the file cannot be read or decoded.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// jsonObject is the JSON object in path (a --json output), read by
// readJSON.
func jsonObject(t *testing.T, path string) map[string]any {
	t.Helper()
	var j map[string]any
	readJSON(t, path, &j)
	return j
}

// eachJSONLine decodes every line of the JSON Lines file at path (a raw
// log, read here on its own) into a fresh T and calls fn with it; a line
// that does not decode, or a read error, fails the test.
func eachJSONLine[T any](t *testing.T, path string, fn func(rec T)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for n := 1; sc.Scan(); n++ {
		var rec T
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s line %d: %v", path, n, err)
		}
		fn(rec)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
