package sweep

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress reports a sweep's progress. On a terminal it keeps one live
// line, rewritten with \r at most every Interval:
//
//	12/18 runs  108 rows  3 errors  45.2 MB/s  ETA 4s
//
// and ends with the Summary; elsewhere (logs, CI) it writes only the
// Summary line. A nil *Progress, or one made quiet, writes nothing.
type Progress struct {
	w     io.Writer
	tty   bool
	quiet bool
	// Interval is the live line's refresh period (default 250 ms, 4 Hz).
	Interval time.Duration

	mu      sync.Mutex
	total   int
	done    int // runs analysed or skipped
	rows    int
	errs    int // error rows
	bytes   int64
	started time.Time
	width   int // length of the last live line

	stop chan struct{}
	wg   sync.WaitGroup
}

// NewProgress returns a Progress writing to w (usually stderr). isTTY says
// whether w is a terminal; quiet silences it entirely.
func NewProgress(w io.Writer, isTTY, quiet bool) *Progress {
	return &Progress{w: w, tty: isTTY, quiet: quiet, Interval: 250 * time.Millisecond}
}

func (p *Progress) start(runs, configs int) {
	if p == nil || p.quiet {
		return
	}
	p.mu.Lock()
	p.total, p.started = runs, time.Now()
	p.mu.Unlock()
	if !p.tty {
		return
	}
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(p.Interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.mu.Lock()
				p.redraw(time.Now())
				p.mu.Unlock()
			case <-p.stop:
				return
			}
		}
	}()
}

// update records the running totals (called by the writer goroutine).
func (p *Progress) update(s *Summary) {
	if p == nil || p.quiet {
		return
	}
	p.mu.Lock()
	p.done, p.rows, p.errs, p.bytes = s.Analysed+s.Skipped, s.Rows, s.RowsByStatus[StatusError], s.Bytes
	p.mu.Unlock()
}

// line renders the live line at now. Callers hold mu.
func (p *Progress) line(now time.Time) string {
	el := now.Sub(p.started)
	l := fmt.Sprintf("%d/%d runs  %d rows  %d errors", p.done, p.total, p.rows, p.errs)
	if secs := el.Seconds(); secs > 0 {
		l += fmt.Sprintf("  %.1f MB/s", float64(p.bytes)/1e6/secs)
	}
	if p.done > 0 && p.done < p.total {
		eta := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		l += "  ETA " + eta.Round(time.Second).String()
	}
	return l
}

func (p *Progress) redraw(now time.Time) {
	l := p.line(now)
	pad := ""
	if n := p.width - len(l); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(p.w, "\r%s%s", l, pad)
	p.width = len(l)
}

func (p *Progress) finish(s Summary) {
	if p == nil || p.quiet {
		return
	}
	if p.stop != nil {
		close(p.stop)
		p.wg.Wait()
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.width > 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
	}
	fmt.Fprintln(p.w, s.String())
}
