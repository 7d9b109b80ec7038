package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// initWritten is in the executable's writable data, set at initialisation:
// releasing a writable mapping would revert it to the file's {1, 2}.
var initWritten = [2]int{1, 2}

func init() { initWritten[0] = 42 }

// exeResidentKB sums /proc/self/smaps' Rss of the executable's mappings,
// split into read-only and writable ones.
func exeResidentKB(t *testing.T) (readOnly, writable int) {
	t.Helper()
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Skip("no /proc/self/exe:", err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	var inExe, ro bool
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) >= 2 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			inExe = len(fields) >= 6 && fields[5] == exe
			ro = fields[1][1] == '-'
			continue
		}
		if inExe && len(fields) >= 2 && fields[0] == "Rss:" {
			kb, _ := strconv.Atoi(fields[1])
			if ro {
				readOnly += kb
			} else {
				writable += kb
			}
		}
	}
	return readOnly, writable
}

func TestReleaseInitPages(t *testing.T) {
	if traced() {
		t.Skip("under a tracer releaseInitPages does nothing")
	}
	before, _ := exeResidentKB(t)
	releaseInitPages()
	after, writable := exeResidentKB(t)
	t.Logf("executable's read-only pages resident: %d KB before, %d KB after; writable %d KB", before, after, writable)
	// The test binary has run every package's initialisation and the
	// tests before this one; what this test itself touches again after the
	// release is a small part of that.
	if after*2 > before {
		t.Errorf("read-only resident pages %d KB after release, %d KB before: not released", after, before)
	}
	if writable == 0 {
		t.Errorf("no writable pages of the executable resident: the data segment was released too")
	}
	if initWritten != [2]int{42, 2} {
		t.Errorf("initialised data changed by the release: %v, want [42 2]", initWritten)
	}
	if s := strings.Repeat("x", 3); s != "xxx" { // code paged back in runs
		t.Errorf("code after release: %q", s)
	}
}
