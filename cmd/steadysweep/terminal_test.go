package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: what is written to slave is read
// from master. It skips the test where the system has no ptys.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pty number: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pty slave: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// drain reads everything written to a pty's slave until it is closed.
func drain(master *os.File) <-chan []byte {
	done := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(master) // ends with EIO once the slave is closed
		done <- b
	}()
	return done
}

// isTerminal is isatty: a pty is a terminal; /dev/null, a character
// device too (the old test), is not; nor are files and pipes.
func TestIsTerminal(t *testing.T) {
	_, slave := openPTY(t)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if st, _ := null.Stat(); st.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is not a character device here; the case proves nothing", os.DevNull)
	}
	file, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	for _, tc := range []struct {
		name string
		f    *os.File
		want bool
	}{{"pty", slave, true}, {os.DevNull, null, false}, {"regular file", file, false}, {"pipe", pw, false}} {
		if got := isTerminal(tc.f); got != tc.want {
			t.Errorf("isTerminal(%s) = %v, want %v", tc.name, got, tc.want)
		}
	}
	if isTerminalWriter(&bytes.Buffer{}) {
		t.Error("a bytes.Buffer is a terminal")
	}
}

// analyze --write-report with stdout on a terminal: the report shown has
// colour, steady_state.txt has none and is otherwise the same text; with
// stdout on /dev/null (a character device) nothing is coloured either.
func TestWriteReportNoColourInFiles(t *testing.T) {
	if v, ok := os.LookupEnv("NO_COLOR"); ok {
		t.Cleanup(func() { os.Setenv("NO_COLOR", v) })
		os.Unsetenv("NO_COLOR")
	}
	master, slave := openPTY(t)
	dir := copyRun(t, filepath.Join("..", "..", "testdata", "goodrun"))
	out := drain(master)
	stderr, err := runTo(slave, "analyze", dir, "--tokenizer", "words", "--no-cache", "--write-report")
	slave.Close()
	if err != nil {
		t.Fatalf("analyze: %v (stderr %s)", err, stderr)
	}
	shown := strings.ReplaceAll(string(<-out), "\r\n", "\n") // the tty's output processing
	file, err := os.ReadFile(filepath.Join(dir, "steady_state.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(shown, "\x1b[") {
		t.Errorf("the report on a terminal has no colour:\n%s", shown)
	}
	if bytes.Contains(file, []byte("\x1b")) {
		t.Errorf("steady_state.txt holds ANSI escapes:\n%q", file)
	}
	if plain := stripANSI(shown); plain != string(file) {
		t.Errorf("steady_state.txt is not the shown report without colour:\nshown\n%s\nfile\n%s", plain, file)
	}

	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if _, err := runTo(null, "analyze", dir, "--tokenizer", "words", "--no-cache", "--write-report"); err != nil {
		t.Fatal(err)
	}
	if file, _ := os.ReadFile(filepath.Join(dir, "steady_state.txt")); bytes.Contains(file, []byte("\x1b")) {
		t.Errorf("with stdout on %s, steady_state.txt holds ANSI escapes", os.DevNull)
	}
}

// stripANSI removes CSI escape sequences (ESC [ … final byte).
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
