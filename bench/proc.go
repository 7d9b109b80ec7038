package bench

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Child is one run of a child process: wall time, CPU time (user+system,
// the child and anything it waited for), peak resident set size and minor
// page faults (each a fresh page the process touched: on a VM they cost
// microseconds each, a large share of a short command's CPU).
type Child struct {
	Wall, CPU float64 // seconds
	MaxRSS    int64   // bytes
	MinFlt    int64
}

// timeBin is GNU time, used for the peak RSS when present.
const timeBin = "/usr/bin/time"

// RSSMethod says how RunChild measures peak RSS on this machine.
func RSSMethod() string {
	if _, err := os.Stat(timeBin); err == nil {
		return "`/usr/bin/time -f %M` (the child's own peak, `ru_maxrss` of a process forked by `time`; minor faults likewise by `%R`)"
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
		// %R then %M: the child's own minor faults and peak (time's own
		// are not in them).
		cmd.Args = append([]string{timeBin, "-f", "%R %M", "-o", rssFile}, cmd.Args...)
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
		c.MinFlt = ru.Minflt
	}
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			return c, err
		}
		fields := strings.Fields(string(b))
		if len(fields) < 2 {
			return c, fmt.Errorf("%s: output %q, want minor faults and peak RSS", timeBin, b)
		}
		flt, err1 := strconv.ParseInt(fields[len(fields)-2], 10, 64)
		kb, err2 := strconv.ParseInt(fields[len(fields)-1], 10, 64)
		if err := errors.Join(err1, err2); err != nil {
			return c, fmt.Errorf("%s output %q: %w", timeBin, b, err)
		}
		c.MaxRSS, c.MinFlt = kb<<10, flt
	}
	return c, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
