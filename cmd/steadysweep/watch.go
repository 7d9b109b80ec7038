package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
	"github.com/steadysweep/steadysweep/sinks/resultjson"
	"github.com/steadysweep/steadysweep/sweep"
)

// Exit codes of `watch` for a run that ended without a certified stop,
// by its final verdict (documented in help/watch.txt).
const (
	exitWatchSteady   = 3 // STEADY STATE, but the stop rule never held
	exitWatchDrifting = 4 // drifting_up or drifting_down
	exitWatchAnomaly  = 5 // a level shift
	exitWatchNotFound = 6 // no steady window
)

// verdictExit is a run that ended without certification: its final
// verdict and the exit code that says it.
type verdictExit struct {
	verdict core.Verdict
	code    int
}

func (e verdictExit) Error() string {
	return fmt.Sprintf("the run ended without a certified stop: final verdict %s", e.verdict)
}

// ExitCode is the process's exit code (exitCode reads it).
func (e verdictExit) ExitCode() int { return e.code }

func verdictExitOf(v core.Verdict) verdictExit {
	switch v {
	case core.VerdictSteadyState:
		return verdictExit{v, exitWatchSteady}
	case core.VerdictDriftingUp, core.VerdictDriftingDown:
		return verdictExit{v, exitWatchDrifting}
	case core.VerdictAnomaly:
		return verdictExit{v, exitWatchAnomaly}
	}
	return verdictExit{v, exitWatchNotFound}
}

// watchFlags are the flags of `steadysweep watch`.
type watchFlags struct {
	load        loadFlags
	poll        time.Duration
	timeout     time.Duration
	idle        time.Duration
	jsonPath    string
	onCertified string
}

func runWatch(fs *pflag.FlagSet) commandBody {
	var f watchFlags
	fs.StringVar(&f.load.tokenizer, "tokenizer", "", "tokenizer: a tokenizer.json path or directory, a Hugging Face model id in the local cache, or 'words' (default: from the run's model name)")
	fs.StringVar(&f.load.model, "model", "", "model name for the tokenizer registry (default: config.yaml)")
	fs.IntVar(&f.load.datasetSize, "dataset-size", 0, "dataset size (default: run_meta.json, then sample_idx_map.json)")
	fs.DurationVar(&f.poll, "poll", 2*time.Second, "how often to look for new lines")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after this long (0: never)")
	fs.DurationVar(&f.idle, "idle-timeout", 10*time.Minute, "a log that stops growing without session.ended for this long is taken as ended (truncated)")
	fs.StringVar(&f.jsonPath, "json", "", "where to write the JSON result (default: steady_state.watch.json beside the events file)")
	fs.StringVar(&f.onCertified, "on-certified", "", "run this shell command once the stop is certified (env: STEADYSWEEP_STOP_AT_S, STEADYSWEEP_JSON, STEADYSWEEP_RUN)")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if fs.NArg() != 1 {
			fs.Usage()
			return usagef("watch needs exactly one RUN_DIR or events.jsonl, got %d", fs.NArg())
		}
		if f.poll <= 0 || f.idle <= 0 || f.timeout < 0 {
			return usagef("--poll and --idle-timeout must be positive, --timeout not negative")
		}
		w := &watcher{flags: &f, arg: fs.Arg(0), stdout: stdout, stderr: stderr, term: isTerminalWriter(stderr),
			params: core.DefaultParams(), target: core.DefaultStopTarget(), clock: realClock}
		return w.watch(ctx)
	}
}

// watcher follows one run's events log.
type watcher struct {
	flags          *watchFlags
	arg            string
	stdout, stderr io.Writer
	term           bool
	params         core.Params
	target         core.StopTarget
	clock          replayClock

	run     *columnar.Run
	counter columnar.TokenCounter
	loaded  sweep.LoadedRun
	file    *os.File
	follow  *columnar.Follower
	buf     []byte
	// bytesRead counts what was read from the file: each byte once;
	// growths the polls that found new bytes.
	bytesRead int64
	growths   int

	S        int
	analysed int // prefixes (in super-passes) analysed so far
	streak   int
	last     core.StopCheck
	lastRes  *core.Result
	startNs  int64
	liveLen  int
}

// watch is the loop: wait for the log, read what was appended, analyse
// each newly completed super-pass, stop when the rule holds, the run
// ends, the time is up or ctx is cancelled.
func (w *watcher) watch(ctx context.Context) error {
	begin := w.clock.now()
	deadline := func() bool { return w.flags.timeout > 0 && w.clock.now().Sub(begin) >= w.flags.timeout }
	for w.run == nil {
		if err := w.open(ctx); err == nil {
			break
		} else if ctx.Err() != nil {
			return w.interrupted(err)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if deadline() {
			return fmt.Errorf("watch %s: no events log appeared within --timeout %s", w.arg, w.flags.timeout)
		}
		if err := w.clock.sleep(ctx, w.flags.poll); err != nil {
			return w.interrupted(err)
		}
	}
	defer w.file.Close()
	lastGrowth := w.clock.now()
	for {
		n, err := w.readNew()
		if err != nil {
			return err
		}
		if n > 0 {
			w.growths++
			lastGrowth = w.clock.now()
			done, err := w.step()
			if err != nil || done {
				return err
			}
		}
		switch {
		case w.follow.Ended():
			return w.final(ctx)
		case w.clock.now().Sub(lastGrowth) >= w.flags.idle:
			fmt.Fprintf(w.stderr, "\nwatch: no new line for %s and no session.ended: taking the run as ended\n", w.flags.idle)
			return w.final(ctx)
		case deadline():
			w.endLive()
			return fmt.Errorf("watch %s: --timeout %s reached before the run was certified or ended; %s", w.arg, w.flags.timeout, w.state())
		}
		if err := w.clock.sleep(ctx, w.flags.poll); err != nil {
			return w.interrupted(err)
		}
	}
}

// open resolves the run, reads its sidecars and opens its events log.
func (w *watcher) open(ctx context.Context) error {
	run, err := columnar.ResolveRun(ctx, w.arg)
	if err != nil {
		return err
	}
	if run.Format != columnar.FormatEndpoints || run.Compression != "" {
		return usagef("watch follows a plain endpoints events.jsonl; %s is %s %s", run.EventsPath, run.Compression, run.Format)
	}
	if w.flags.load.datasetSize > 0 {
		run.Info.DatasetSize, run.Info.DatasetSizeSource = w.flags.load.datasetSize, "--dataset-size"
	}
	if w.S = run.Info.DatasetSize; w.S <= 0 {
		return usageError{fmt.Errorf("watch %s: %w", run.Dir, core.ErrSuperpassSize)}
	}
	c, res, err := sweep.NewRunLoader(w.flags.load.options(nil)).Counter(run)
	if err != nil {
		return loadError(err)
	}
	file, err := os.Open(run.EventsPath)
	if err != nil {
		return err
	}
	w.run, w.counter, w.file = run, c, file
	w.loaded = sweep.LoadedRun{Run: run, Counter: c, Resolution: res}
	w.follow = columnar.NewFollower(columnar.DecodeOptions{Name: run.EventsPath, Counter: c})
	w.buf = make([]byte, 256<<10)
	if w.flags.jsonPath == "" {
		w.flags.jsonPath = filepath.Join(run.Dir, "steady_state.watch.json")
	}
	return nil
}

// readNew reads what was appended since the last read, to the current
// end of the file, and feeds it to the decoder; it returns the bytes read.
func (w *watcher) readNew() (int64, error) {
	var total int64
	for {
		n, err := w.file.Read(w.buf)
		if n > 0 {
			total += int64(n)
			w.bytesRead += int64(n)
			if ferr := w.follow.Feed(w.buf[:n]); ferr != nil {
				return total, ferr
			}
		}
		if err == io.EOF || n == 0 {
			return total, nil
		}
		if err != nil {
			return total, fmt.Errorf("watch: read %s: %w", w.run.EventsPath, err)
		}
	}
}

// step analyses every prefix of super-passes completed since the last
// step; it reports done once the stop is certified (and acted on).
func (w *watcher) step() (bool, error) {
	s := w.follow.Snapshot()
	info := w.follow.RunInfo(w.run, s)
	if w.startNs <= 0 {
		w.startNs = firstIssue(s)
	}
	k := completedPrefix(s, w.S)
	if k <= w.analysed {
		return false, nil
	}
	cr := core.NewRun(s, info)
	cuts := core.PrefixCutNs(s, w.S)
	for kk := w.analysed + 1; kk <= k; kk++ {
		w.analysed = kk
		res, err := cr.AnalyzePrefix(w.params, w.S, kk)
		if err != nil {
			return false, err
		}
		c := core.StopCheckOf(res, w.target)
		c.NSuperPasses, c.CutNs = kk, cuts[kk-1]
		w.last, w.lastRes = c, res
		if c.Certified {
			w.streak++
		} else {
			w.streak = 0
		}
		w.live()
		if w.streak >= max(w.target.Confirm, 1) {
			return true, w.certified(res, c, core.HeadSamples(s, kk*w.S), info)
		}
	}
	return false, nil
}

// completedPrefix is the number of leading full super-passes of size S
// whose samples have all ended (completed or failed).
func completedPrefix(s *core.Samples, S int) int {
	n := 0
	for n < s.Len() && (s.HasComplete[n] || s.Failed[n]) {
		n++
	}
	return n / S
}

func firstIssue(s *core.Samples) int64 {
	first := int64(-1)
	for _, v := range s.IssueNs {
		if v >= 0 && (first < 0 || v < first) {
			first = v
		}
	}
	return first
}

// live shows the state: one redrawn line on a terminal, a line per
// analysed prefix otherwise.
func (w *watcher) live() {
	line := w.state()
	if !w.term {
		fmt.Fprintln(w.stderr, "watch: "+line)
		return
	}
	colour := "0" // the report's styles: bold green good, bold yellow questionable
	switch {
	case w.last.Certified:
		colour = "1;32"
	case w.last.Verdict == core.VerdictDriftingUp || w.last.Verdict == core.VerdictDriftingDown || w.last.Verdict == core.VerdictAnomaly:
		colour = "1;33"
	}
	fmt.Fprintf(w.stderr, "\r\033[K\033[%sm%s\033[0m", colour, line)
	w.liveLen = len(line)
}

// endLive ends the redrawn line on a terminal.
func (w *watcher) endLive() {
	if w.term && w.liveLen > 0 {
		fmt.Fprintln(w.stderr)
		w.liveLen = 0
	}
}

// state is the live line: super-passes, the verdict so far, the
// intervals' half-widths, the time to the minimum duration and the
// certification streak.
func (w *watcher) state() string {
	c := w.last
	if w.lastRes == nil {
		return fmt.Sprintf("%d bytes, %d lines, no complete super-pass of %d yet", w.bytesRead, w.follow.Lines(), w.S)
	}
	toMin := "met"
	switch {
	case !math.IsNaN(c.MinDurationS) && !math.IsNaN(c.WindowDurationS) && c.WindowDurationS < c.MinDurationS:
		toMin = fmt.Sprintf("%.0f s to go", c.MinDurationS-c.WindowDurationS)
	case math.IsNaN(c.WindowDurationS):
		if left := w.lastRes.MinDurFloorS - float64(c.CutNs-w.startNs)/1e9; left > 0 {
			toMin = fmt.Sprintf("≥ %.0f s to go", left)
		} else {
			toMin = "no window yet"
		}
	}
	verdict := string(c.Verdict)
	if verdict == "" {
		verdict = string(c.Status)
	}
	line := fmt.Sprintf("%d super-passes · %.0f s · %s · system TPS %s · TPOT p50 %s · min duration %s · certified %d/%d",
		c.NSuperPasses, float64(c.CutNs-w.startNs)/1e9, verdict, halfWidthText(c.TPSSystem, c.TPSSystemCI),
		halfWidthText(c.TPOTP50Ns, c.TPOTP50CI), toMin, w.streak, max(w.target.Confirm, 1))
	if c.Reason != "" {
		line += " (" + c.Reason + ")"
	}
	return line
}

func halfWidthText(v float64, ci [2]float64) string {
	hw := core.RelHalfWidth(v, ci)
	if math.IsNaN(hw) {
		return "±n/a"
	}
	return fmt.Sprintf("±%.2f%%", 100*hw)
}

// certified prints the certified report, writes the JSON and runs
// --on-certified.
func (w *watcher) certified(res *core.Result, c core.StopCheck, head *core.Samples, info core.RunInfo) error {
	w.endLive()
	nan := math.NaN()
	res.EarliestStop = &core.EarliestStop{Found: true, Stop: c, StartNs: w.startNs, EndNs: -1,
		StopAtS: float64(c.CutNs-w.startNs) / 1e9, SavedFrac: nan, Target: w.target, Evaluated: w.analysed, Step: 1}
	if err := w.report(res, head, info); err != nil {
		return err
	}
	if w.flags.onCertified == "" {
		return nil
	}
	cmd := exec.Command("sh", "-c", w.flags.onCertified)
	cmd.Stdout, cmd.Stderr = w.stdout, w.stderr
	cmd.Env = append(os.Environ(), fmt.Sprintf("STEADYSWEEP_STOP_AT_S=%.3f", res.EarliestStop.StopAtS),
		"STEADYSWEEP_JSON="+w.flags.jsonPath, "STEADYSWEEP_RUN="+w.run.Dir)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("--on-certified %q: %w", w.flags.onCertified, err)
	}
	return nil
}

// final analyses the ended run in full: its report and JSON, with the
// earliest stop an archive analysis finds, and the exit by its verdict
// (0 when that stop is certified after all: the rule held at the end).
func (w *watcher) final(ctx context.Context) error {
	w.endLive()
	if err := w.follow.Finish(); err != nil {
		return err
	}
	s := &w.follow.Decoded().Samples
	info := w.follow.RunInfo(w.run, s)
	cr := core.NewRun(s, info)
	cr.Stop = ctx.Err
	res, err := cr.Analyze(w.params)
	if err != nil {
		return fmt.Errorf("watch %s: %w", w.run.EventsPath, err)
	}
	if err := sweep.EarliestStop(cr, w.params, res); err != nil {
		return err
	}
	if err := w.report(res, s, info); err != nil {
		return err
	}
	if res.EarliestStop != nil && res.EarliestStop.Found {
		return nil
	}
	return verdictExitOf(res.Outcome().Verdict)
}

// report prints the text report of res and writes its JSON.
func (w *watcher) report(res *core.Result, s *core.Samples, info core.RunInfo) error {
	w.loaded.Samples, w.loaded.Info = s, info
	text, err := reportText(res, &w.loaded, colorWanted(w.stdout), reportWidth(w.stdout))
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w.stdout, text); err != nil {
		return err
	}
	out, err := atomicfile.Create(w.flags.jsonPath)
	if err != nil {
		return fmt.Errorf("write --json: %w", err)
	}
	if err := resultjson.Write(out, res); err != nil {
		return errors.Join(fmt.Errorf("write --json: %w", err), out.Abort())
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("write --json: %w", err)
	}
	fmt.Fprintf(w.stderr, "wrote %s\n", w.flags.jsonPath)
	return nil
}

// interrupted prints the state so far and returns err (a cancelled
// context: exit 130).
func (w *watcher) interrupted(err error) error {
	w.endLive()
	if w.run == nil {
		fmt.Fprintf(w.stderr, "watch: interrupted before %s had an events log\n", w.arg)
	} else {
		fmt.Fprintf(w.stderr, "watch: interrupted: %s\n", strings.TrimSpace(w.state()))
	}
	return err
}
