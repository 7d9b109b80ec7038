// Command testsummary reads `go test -json` on stdin and prints what go
// test prints without -v — a line per package, and the output of every
// failing test — then one line per skipped test with its reason, so a
// skip is seen without -v (make test). It exits 1 when a test or a
// package failed (or a package did not build), else 0.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of go test -json (cmd/test2json's TestEvent).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output events
	Test       string
	Output     string
}

// skip is one skipped test and why.
type skip struct{ pkg, test, reason string }

func main() {
	failed, err := summarise(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testsummary: %v\n", err)
		os.Exit(1)
	}
	if failed {
		os.Exit(1)
	}
}

// summarise copies the stream in (go test -json) to out as go test
// without -v would print it, then the skipped tests; failed reports
// whether anything failed.
func summarise(in io.Reader, out io.Writer) (failed bool, err error) {
	w := bufio.NewWriter(out)
	defer w.Flush()
	held := map[[2]string][]string{} // output of a running test, by package and test
	var skips []skip
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(b) == 0 || b[0] != '{' { // not an event: go test's own stderr merged in
			fmt.Fprintf(w, "%s\n", b)
			continue
		}
		var e event
		if err := json.Unmarshal(b, &e); err != nil {
			return true, fmt.Errorf("line %d: %v", line, err)
		}
		key := [2]string{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			io.WriteString(w, e.Output)
		case e.Action == "build-fail":
			failed = true
		case e.Test == "" && e.Action == "output":
			// The package's lines: "ok …", "FAIL …", a panic, TestMain's
			// output; go test without -v prints all of them but PASS.
			if e.Output != "PASS\n" && !strings.HasPrefix(e.Output, "=== ") {
				io.WriteString(w, e.Output)
			}
		case e.Test == "" && e.Action == "fail":
			failed = true
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Action == "fail":
			failed = true
			for _, l := range held[key] {
				if !strings.HasPrefix(l, "=== ") {
					io.WriteString(w, l)
				}
			}
			delete(held, key)
		case e.Test == "" && e.Action == "skip":
			// a package without test files: its "?" line says so
		case e.Action == "skip":
			skips = append(skips, skip{e.Package, e.Test, skipReason(held[key])})
			delete(held, key)
		case e.Action == "pass":
			delete(held, key)
		}
		w.Flush()
	}
	if err := sc.Err(); err != nil {
		return true, err
	}
	if len(skips) == 0 {
		return failed, nil
	}
	sort.Slice(skips, func(i, j int) bool {
		if skips[i].pkg != skips[j].pkg {
			return skips[i].pkg < skips[j].pkg
		}
		return skips[i].test < skips[j].test
	})
	noun := "tests"
	if len(skips) == 1 {
		noun = "test"
	}
	fmt.Fprintf(w, "%d %s skipped:\n", len(skips), noun)
	for _, s := range skips {
		fmt.Fprintf(w, "  %s %s: %s\n", s.pkg, s.test, s.reason)
	}
	return failed, nil
}

// skipReason is the message a skipped test logged (t.Skip's, with its
// file:line prefix), on one line: its output without the === and ---
// lines go test adds.
func skipReason(lines []string) string {
	var msg []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		msg = append(msg, t)
	}
	if len(msg) == 0 {
		return "(no reason given)"
	}
	return strings.Join(msg, "; ")
}
