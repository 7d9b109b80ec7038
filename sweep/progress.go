package sweep

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/steadysweep/steadysweep/sinks"
)

// Progress reports a sweep's progress. On a terminal it keeps one live
// line, rewritten with \r every Interval:
//
//	12/18 runs (1 failed)  108 rows (9 errors)  45.2 MB/s  ETA 4s
//
// elsewhere (a Slurm log, CI) it writes the same line, time-stamped, every
// Every. Either way it ends with the Summary and the runs that failed. A
// nil *Progress, or one made quiet, writes nothing.
type Progress struct {
	w     io.Writer
	tty   bool
	quiet bool
	// Interval is the live line's refresh period (default 250 ms, 4 Hz).
	Interval time.Duration
	// Every is the period of the progress lines off a terminal (default
	// 30 s; ≤ 0: none, only the summary).
	Every time.Duration

	mu      sync.Mutex
	total   int
	done    int // runs analysed or skipped
	failed  int // runs with error rows
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
	return &Progress{w: w, tty: isTTY, quiet: quiet, Interval: 250 * time.Millisecond, Every: 30 * time.Second}
}

func (p *Progress) start(runs, configs int) {
	if p == nil || p.quiet {
		return
	}
	p.mu.Lock()
	p.total, p.started = runs, time.Now()
	p.mu.Unlock()
	period, tick := p.Interval, p.redraw
	if !p.tty {
		period, tick = p.Every, p.logLine
	}
	if period <= 0 {
		return
	}
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case now := <-t.C:
				p.mu.Lock()
				tick(now)
				p.mu.Unlock()
			case <-p.stop:
				return
			}
		}
	}()
}

// retrying says, before the sweep starts, how many error rows a resume
// redoes and how many it had to keep.
func (p *Progress) retrying(taken, kept int) {
	if p == nil || p.quiet || taken+kept == 0 {
		return
	}
	msg := fmt.Sprintf("resume: redoing %d error rows (--retry-errors=false keeps them)", taken)
	if kept > 0 {
		msg += fmt.Sprintf("; %d error rows kept: other shards' part files hold them (resume with the same shard count to redo them)", kept)
	}
	p.mu.Lock()
	fmt.Fprintln(p.w, msg)
	p.mu.Unlock()
}

// upgrading reports a resume over rows of an older schema version: older
// such rows found, taken of them removed to be redone.
func (p *Progress) upgrading(older, taken int) {
	if p == nil || p.quiet {
		return
	}
	msg := fmt.Sprintf("resume: the output holds rows of an older schema (this steadysweep writes schema_version %d): "+
		"redoing %d of them (their old rows and series removed)", sinks.SchemaVersion, taken)
	if kept := older - taken; kept > 0 {
		msg += fmt.Sprintf("; %d kept (runs or configs outside this sweep, or other shards' part files): "+
			"the directory mixes versions — filter on schema_version, or read with union_by_name", kept)
	}
	p.mu.Lock()
	fmt.Fprintln(p.w, msg)
	p.mu.Unlock()
}

// update records the running totals (called by the writer goroutine).
func (p *Progress) update(s *Summary) {
	if p == nil || p.quiet {
		return
	}
	p.mu.Lock()
	p.done, p.failed, p.rows, p.errs, p.bytes = s.Analysed+s.Skipped, s.ErrorRuns, s.Rows, s.RowsByStatus[StatusError], s.Bytes
	p.mu.Unlock()
}

// line renders the progress line at now. Callers hold mu.
func (p *Progress) line(now time.Time) string {
	el := now.Sub(p.started)
	l := fmt.Sprintf("%d/%d runs", p.done, p.total)
	if p.failed > 0 {
		l += fmt.Sprintf(" (%d failed)", p.failed)
	}
	l += fmt.Sprintf("  %d rows", p.rows)
	if p.errs > 0 {
		l += fmt.Sprintf(" (%d errors)", p.errs)
	}
	if secs := el.Seconds(); secs > 0 {
		l += fmt.Sprintf("  %.1f MB/s", float64(p.bytes)/1e6/secs)
	}
	if p.done > 0 && p.done < p.total {
		eta := time.Duration(float64(el) / float64(p.done) * float64(p.total-p.done))
		l += "  ETA " + eta.Round(time.Second).String()
	}
	return l
}

// redraw rewrites the live line. Callers hold mu.
func (p *Progress) redraw(now time.Time) {
	l := p.line(now)
	pad := ""
	if n := p.width - len(l); n > 0 {
		pad = strings.Repeat(" ", n)
	}
	fmt.Fprintf(p.w, "\r%s%s", l, pad)
	p.width = len(l)
}

// logLine writes one time-stamped progress line. Callers hold mu.
func (p *Progress) logLine(now time.Time) {
	fmt.Fprintf(p.w, "%s progress: %s\n", now.Format("2006-01-02 15:04:05"), p.line(now))
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
	for _, l := range s.PeerLines() {
		fmt.Fprintln(p.w, l)
	}
	for _, l := range s.FailureLines() {
		fmt.Fprintln(p.w, l)
	}
}
