package sweep

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// debugLog writes the engine's debug lines (Options.Debug): each is
// "steadysweep: ", the local date and time as "2006/01/02 15:04:05 ", the
// message and a newline — the lines log.New(w, "steadysweep: ",
// log.LstdFlags) wrote. Not package log itself: its init (the standard
// logger) ran in every steadysweep process for this one optional
// writer (issue 32). Safe for concurrent use: workers share it.
type debugLog struct {
	mu sync.Mutex
	w  io.Writer
}

// Printf formats and writes one line; nothing when w is io.Discard.
func (l *debugLog) Printf(format string, args ...any) {
	if l.w == io.Discard {
		return
	}
	line := time.Now().AppendFormat([]byte("steadysweep: "), "2006/01/02 15:04:05 ")
	line = fmt.Appendf(line, format, args...)
	if line[len(line)-1] != '\n' {
		line = append(line, '\n')
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(line)
}
