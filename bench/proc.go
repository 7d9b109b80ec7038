package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Child is one run of a child process: wall time, CPU time (user+system,
// the child and anything it waited for) and peak resident set size.
type Child struct {
	Wall, CPU float64 // seconds
	MaxRSS    int64   // bytes
}

// timeBin is GNU time, used for the peak RSS when present.
const timeBin = "/usr/bin/time"

// RSSMethod says how RunChild measures peak RSS on this machine.
func RSSMethod() string {
	if _, err := os.Stat(timeBin); err == nil {
		return "`/usr/bin/time -f %M` (the child's own peak, `ru_maxrss` of a process forked by `time`)"
	}
	return "`wait4` `ru_maxrss` of the child — an upper bound: Linux folds the parent's resident size at " +
		"fork/exec into it (install GNU time for the exact figure)"
}

// RunChild runs cmd to completion and measures it. Wall and CPU time come
// from the kernel's accounting (wait4). Peak RSS comes from GNU time when
// /usr/bin/time exists: Go starts children with vfork semantics, so a
// direct child's ru_maxrss includes this (large) process's resident size,
// while a grandchild forked by the small time process does not.
// The child's stdout is discarded; its stderr is returned in the error
// when it fails.
func RunChild(cmd *exec.Cmd) (Child, error) {
	var rssFile string
	if _, err := os.Stat(timeBin); err == nil {
		f, err := os.CreateTemp("", "benchall-rss-")
		if err != nil {
			return Child{}, err
		}
		rssFile = f.Name()
		f.Close()
		defer os.Remove(rssFile)
		cmd.Args = append([]string{timeBin, "-f", "%M", "-o", rssFile}, cmd.Args...)
		cmd.Path = timeBin
	}
	var stderr bytes.Buffer
	cmd.Stdout = nil
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0).Seconds()
	if err != nil {
		return Child{}, fmt.Errorf("%s: %w: %s", strings.Join(cmd.Args, " "), err, tail(stderr.String(), 800))
	}
	c := Child{Wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		c.CPU = float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
		c.MaxRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			return c, err
		}
		fields := strings.Fields(string(b))
		if len(fields) == 0 {
			return c, fmt.Errorf("%s: empty output", timeBin)
		}
		kb, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
		if err != nil {
			return c, fmt.Errorf("%s output %q: %w", timeBin, b, err)
		}
		c.MaxRSS = kb << 10
	}
	return c, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
