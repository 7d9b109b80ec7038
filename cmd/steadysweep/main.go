// Command steadysweep finds the steady state of LLM-inference benchmark
// runs from their event logs, one run (analyze) or whole archives over a
// parameter grid (sweep). Each command's help page is help/NAME.txt,
// embedded (help.go); the README describes the commands and exit codes.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/sinks"
)

// Exit codes (documented in the README and in --help).
const (
	exitOK          = 0 // a result was produced (found or not)
	exitFailure     = 1 // the input could not be analysed, or output could not be written
	exitUsage       = 2 // the command line was wrong
	exitPartial     = 3 // a sweep wrote rows, but some runs failed (restic's partial-success code)
	exitInterrupted = 130
)

// partialError marks a sweep that finished with some runs failed (their
// rows have status error); it maps to exit 3.
type partialError struct{ msg string }

func (e partialError) Error() string { return e.msg }

// usageError marks an error caused by the command line; it maps to exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// command is one subcommand: its name, a one-line summary and its flags.
// flags registers the command's flags on its flag set and returns the
// body; the dispatcher (runCommand) makes the set and parses the
// arguments, so every command answers --help and a wrong flag the same way.
type command struct {
	name    string
	summary string
	flags   func(fs *pflag.FlagSet) commandBody
}

// commandBody is a command once its flags are parsed: fs.Args() are its
// operands.
type commandBody func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error

// runCommand is command name on args: a flag set of its own, flags
// registers the command's flags on it, and the body runs unless args ask
// for help or are wrong.
func runCommand(ctx context.Context, name string, flags func(fs *pflag.FlagSet) commandBody, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	body := flags(fs)
	if helped, err := parseFlags(fs, name, args, stdout, stderr); helped || err != nil {
		return err
	}
	awaitSignals(ctx)
	return body(ctx, fs, stdout, stderr)
}

func commands() []command {
	return []command{
		{"analyze", "analyse one run (directory or events.jsonl[.gz|.zst])", runAnalyze},
		{"sweep", "analyse archives of runs over a parameter grid into Parquet", runSweep},
		{"compare", "say whether two runs or sweeps differ beyond noise", runCompare},
		{"ingest", "export runs' per-sample columns to one Parquet file", runIngest},
		{"synth", "write synthetic runs with planted truth", runSynth},
		{"tokens", "count tokens of JSON lines {\"text\": …} on stdin", runTokens},
		{"schema", "print the Parquet schemas of sweep output", runSchema},
		{"report", "write the HTML page of a finished sweep", runReport},
		{"calibrate", "score a sweep of synthetic runs against their planted truth", runCalibrate},
		{"demo", "synthesize runs, analyse one, sweep and calibrate them, recommend", runDemo},
		{"watch", "follow a run in progress until it can stop (certified)", runWatch},
		{"replay", "rewrite a finished run in time-lapse, for watch", runReplay},
		{"version", "print the version", runVersion},
	}
}

func main() {
	args := os.Args[1:]
	if printsOnly(args) {
		// The version or a help page: nothing to interrupt or collect, so
		// neither signal handling (os/signal's goroutine and handlers) nor
		// the first-collection hooks; the version alone not even a flag set.
		if isVersion(args) {
			_, err := io.WriteString(os.Stdout, versionLine(version, commit))
			os.Exit(exitCode(err, os.Stderr))
		}
		os.Exit(exitCode(run(context.Background(), args, os.Stdout, os.Stderr), os.Stderr))
	}
	growStack32K()
	releaseInitPagesAtFirstGC()
	startGCFloor()
	ctx, stop := interruptContext()
	err := run(ctx, args, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// versionLine is "steadysweep VERSION (COMMIT)", the commit left out when
// the version already names it (git describe --always on an untagged
// tree is the commit itself, maybe with -dirty). It sits beside main, not
// in version.go: the linker lays functions out file by file, and
// --version then runs code of one page of the binary instead of two (each
// a page fault at start, issue 32).
func versionLine(version, commit string) string {
	if strings.Contains(version, commit) {
		return "steadysweep " + version + "\n"
	}
	return "steadysweep " + version + " (" + commit + ")\n" // not fmt: --version touches none of its code
}

// isVersion reports whether args are exactly "--version" or "version",
// which print versionLine and nothing else (runVersion; the dispatcher
// gives the same answer, through the version command's empty flag set).
func isVersion(args []string) bool {
	return len(args) == 1 && (args[0] == "--version" || args[0] == "version")
}

// releaseInitPagesAtFirstGC unmaps the read-only pages initialisation
// touched (releaseInitPages) once the command's heap has grown to its first
// garbage collection (4 MiB): a cleanup attached to an object nothing
// references runs after that collection. A command that stays below it
// (the commands that only print, a warm analyze of a small run) keeps
// them: its peak is initialisation's or close to it, so the unmapping
// would lower it little and cost it the page faults of paging its code
// back in — on a warm analyze of a small run 13 of its 60 ms of CPU
// (loaded machine, bench/RESULTS.md §8). A larger command releases them
// on the other core while it works.
func releaseInitPagesAtFirstGC() {
	atFirstGC(func() { go releaseInitPages() })
}

// atFirstGC runs f (on the runtime's cleanup goroutine, so briefly) after
// the process's first garbage collection: a cleanup attached to an object
// nothing references runs once a collection has found it unreachable.
func atFirstGC(f func()) {
	runtime.AddCleanup(new(gcSentinel), func(struct{}) { f() }, struct{}{})
}

// gcSentinel is the object whose cleanup marks the first collection: 64
// bytes, above the tiny allocator's 16 (a tiny object shares its block
// with others and its cleanup may never run).
type gcSentinel [64]byte

// printsOnly reports whether args ask only for the version or a help page.
func printsOnly(args []string) bool {
	if len(args) == 0 {
		return true
	}
	switch args[0] {
	case "version", "--version", "help", "-h", "--help":
		return true
	}
	return false
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "steadysweep: %s\n", oneLine(err.Error()))
	var coded interface{ ExitCode() int }
	if errors.As(err, &coded) {
		return coded.ExitCode() // a command's own outcome code (watch: the final verdict)
	}
	var ue usageError
	var pe partialError
	switch {
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &pe):
		return exitPartial
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	default:
		return exitFailure
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stderr)
		return usagef("no command given")
	}
	switch args[0] {
	case "-h", "--help":
		printUsage(stdout)
		return nil
	case "help":
		if len(args) == 1 {
			printUsage(stdout)
			return nil
		}
		// help CMD is CMD --help: that command's page, exit 0.
		args = []string{args[1], "--help"}
	case "--version":
		args[0] = "version"
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return runCommand(ctx, c.name, c.flags, args[1:], stdout, stderr)
		}
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if m := didYouMean(args[0], names); m != "" {
		return usagef("unknown command %q; did you mean %q? (run 'steadysweep help')", args[0], m)
	}
	return usagef("unknown command %q (run 'steadysweep help')", args[0])
}

func printUsage(w io.Writer) { io.WriteString(w, helpPage("steadysweep", nil)) }

// oneLine folds a message onto one line: each line break, with the
// indentation after it, becomes "; " (an error is one line on stderr and
// in a row's reason).
func oneLine(msg string) string {
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	for i := range lines {
		lines[i] = sinks.OneLine(strings.TrimSpace(lines[i])) // names are data: a \r or control byte escaped
	}
	return strings.Join(lines, "; ")
}

// warn prints a warning on one line of w (names in it are data: see
// oneLine).
func warn(w io.Writer, msg string) { fmt.Fprintf(w, "warning: %s\n", oneLine(msg)) }
