package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// releaseInitPages unmaps, from this process only, the executable's
// read-only pages (code and constant data) that are resident when main
// starts. Package initialisation of everything linked — arrow-go's
// compute kernel registry, the plotting fonts, templates — touches
// scattered code and data once, and the kernel maps 64 KiB around each
// touch, so every command used to start at ~29 MiB resident of which the
// work that follows uses a fraction. The pages stay in the page cache;
// those the command does use fault back in (minor faults, no I/O), so
// resident memory reflects the command's work, not the binary's size.
//
// Only mappings of the executable that are not writable are released:
// their content is the file's, so dropping them loses nothing (writable
// ones hold initialised variables and are left alone). Under a debugger
// (TracerPid set) nothing is released: a breakpoint is a private,
// modified copy of a code page that dropping would undo.
func releaseInitPages() {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil || traced() {
		return
	}
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return
	}
	for line := range bytes.Lines(maps) {
		// start-end perms offset dev inode path
		f := bytes.Fields(line)
		if len(f) < 6 || string(f[5]) != exe || f[1][1] != '-' || f[1][0] != 'r' {
			continue
		}
		lo, hi, ok := bytes.Cut(f[0], []byte("-"))
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(string(lo), 16, 64)
		end, err2 := strconv.ParseUint(string(hi), 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED)
	}
}

// traced reports whether a debugger or tracer is attached (or cannot tell).
func traced() bool {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return true
	}
	for line := range bytes.Lines(status) {
		if v, ok := bytes.CutPrefix(line, []byte("TracerPid:")); ok {
			return string(bytes.TrimSpace(v)) != "0"
		}
	}
	return true
}
