package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/internal/atomicfile"
	"github.com/steadysweep/steadysweep/internal/safeopen"
)

// replayClock is what replay waits with; tests replace it.
type replayClock struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error
}

// realClock waits on the wall clock (a cancelled ctx ends the wait).
var realClock = replayClock{now: time.Now, sleep: func(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}}

func runReplay(fs *pflag.FlagSet) commandBody {
	speed := fs.Float64("speed", 1, "time-lapse factor: the log's seconds pass K times faster")
	out := fs.StringP("output", "o", "", "directory to write the replayed run into (required)")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if fs.NArg() != 1 {
			fs.Usage()
			return usagef("replay needs exactly one RUN_DIR, got %d", fs.NArg())
		}
		if *out == "" {
			return usagef("replay needs -o DIR")
		}
		if !(*speed > 0) {
			return usagef("--speed must be positive, got %v", *speed)
		}
		n, err := replay(ctx, fs.Arg(0), *out, *speed, realClock)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "replayed %d lines into %s\n", n, filepath.Join(*out, "events.jsonl"))
		return nil
	}
}

// replay rewrites the finished run at src into dir in time-lapse: the
// sidecars (every other regular file beside the events file) are copied
// first, then events.jsonl is appended line by line as each line's
// timestamp_ns comes due, speed times faster than it was logged (a line
// without a timestamp goes with the line before it). The last line is
// written as it is, terminated or not (a truncated run stays truncated).
// It returns the number of lines written.
func replay(ctx context.Context, src, dir string, speed float64, clk replayClock) (int, error) {
	run, err := columnar.ResolveRun(ctx, src)
	if err != nil {
		return 0, err
	}
	if run.Compression != "" {
		return 0, fmt.Errorf("replay %s: a %s-compressed log cannot be appended to as it is read; decompress it first", run.EventsPath, run.Compression)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("replay: %w", err)
	}
	if err := copySidecars(run, dir); err != nil {
		return 0, err
	}
	in, err := safeopen.Open(run.EventsPath)
	if err != nil {
		return 0, fmt.Errorf("replay: %w", err)
	}
	defer in.Close()
	outPath := filepath.Join(dir, "events.jsonl")
	outFile, err := os.OpenFile(outPath, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, fmt.Errorf("replay: %w", err)
	}
	defer outFile.Close()
	w := bufio.NewWriterSize(outFile, 64<<10)
	r := bufio.NewReaderSize(in, 64<<10)
	start := clk.now()
	first, have := int64(0), false
	lines := 0
	for {
		line, rerr := r.ReadBytes('\n')
		if len(line) > 0 {
			if ts, ok := lineTimestamp(line); ok {
				if !have {
					first, have = ts, true
				}
				due := start.Add(time.Duration(float64(ts-first) / speed))
				if wait := due.Sub(clk.now()); wait > 0 {
					// What is due now is in the file before the wait.
					if err := w.Flush(); err != nil {
						return lines, fmt.Errorf("replay: write %s: %w", outPath, err)
					}
					if err := clk.sleep(ctx, wait); err != nil {
						return lines, err
					}
				}
			}
			if _, err := w.Write(line); err != nil {
				return lines, fmt.Errorf("replay: write %s: %w", outPath, err)
			}
			lines++
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return lines, fmt.Errorf("replay: read %s: %w", run.EventsPath, rerr)
		}
	}
	if err := w.Flush(); err != nil {
		return lines, fmt.Errorf("replay: write %s: %w", outPath, err)
	}
	return lines, outFile.Close()
}

// lineTimestamp reads the integer after "timestamp_ns": in an events line.
func lineTimestamp(line []byte) (int64, bool) {
	const key = `"timestamp_ns":`
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return 0, false
	}
	rest := bytes.TrimLeft(line[i+len(key):], " ")
	j := 0
	for j < len(rest) && (rest[j] == '-' || rest[j] >= '0' && rest[j] <= '9') {
		j++
	}
	v, err := strconv.ParseInt(string(rest[:j]), 10, 64)
	return v, err == nil
}

// copySidecars copies every regular file beside the run's events file
// (config.yaml, run_meta.json, sample_idx_map.json, truth.json, …) into
// dir, through the atomic writer.
func copySidecars(run *columnar.Run, dir string) error {
	entries, err := os.ReadDir(run.Dir)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	for _, e := range entries {
		p := filepath.Join(run.Dir, e.Name())
		if !e.Type().IsRegular() || p == run.EventsPath {
			continue
		}
		f, err := safeopen.Open(p)
		if err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		err = atomicfile.WriteWith(filepath.Join(dir, e.Name()), func(w io.Writer) error { _, err := io.Copy(w, f); return err })
		f.Close()
		if err != nil {
			return fmt.Errorf("replay: copy %s: %w", p, err)
		}
	}
	return nil
}
