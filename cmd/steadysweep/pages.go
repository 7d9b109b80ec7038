package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/htmlpage"
	"github.com/steadysweep/steadysweep/sweep"
)

// runReport is `steadysweep report OUT -o FILE`: the HTML page of a
// finished sweep.
func runReport(fs *pflag.FlagSet) commandBody {
	var file string
	fs.StringVarP(&file, "output", "o", "", "write the HTML page to `FILE` (- for standard output)")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if fs.NArg() != 1 || file == "" {
			fs.Usage()
			return usagef("report needs exactly one sweep output directory and -o FILE")
		}
		if err := writeSweepPage(ctx, fs.Arg(0), file, stdout); err != nil {
			return err
		}
		if file != "-" {
			fmt.Fprintf(stderr, "wrote %s\n", file)
		}
		return nil
	}
}

// writeSweepPage writes the page of the sweep in out to file, linking the
// run pages present in out/pages.
func writeSweepPage(ctx context.Context, out, file string, stdout io.Writer) error {
	s, err := htmlpage.ReadSweep(ctx, out)
	if err != nil {
		return fmt.Errorf("report %s: %w", out, err)
	}
	pages := htmlpage.RunPagesDir(out)
	o := htmlpage.SweepOptions{PageDir: filepath.Dir(file), RunPages: func(name string) bool {
		fi, err := os.Lstat(filepath.Join(pages, name))
		return err == nil && fi.Mode().IsRegular()
	}, Stop: ctx.Err} // SIGINT/SIGTERM end the page's building: nothing is written
	if file == "-" {
		o.PageDir = "."
	}
	err = writeOutput(file, stdout, func(w io.Writer) error { return htmlpage.WriteSweep(w, s, o) })
	if err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// runPages writes the page of every run × config a sweep analyses into
// OUT/pages (htmlpage.RunPageName), each linking back to the sweep page
// when one is asked for. The pages are written from the analyzer's results
// once the run is done (sweep.Options.AfterRun), so their writing is not
// in the rows' analysis_ns. A page that cannot be
// written is counted and the first error kept; the rows stand regardless.
type runPages struct {
	dir, back string
	mu        sync.Mutex
	failed    int
	first     error
}

// install wires the pages into the sweep's options: once a run is done,
// the hook writes the page of each of its analyses from the analyzer's
// result (sweep.Options.AfterRun).
func (rp *runPages) install(o *sweep.Options) {
	o.AfterRun = func(ref corpora.RunRef, run *sweep.LoadedRun, analyses []sweep.Analysis) {
		for _, a := range analyses {
			rp.write(ref, run, a.Result, a.Params)
		}
	}
}

func (rp *runPages) write(ref corpora.RunRef, run *sweep.LoadedRun, r *core.Result, p core.Params) {
	path := filepath.Join(rp.dir, htmlpage.RunPageName(ref.RunID(), sinks.ConfigID(p)))
	size := "unresolved"
	if run.Info.DatasetSize > 0 {
		size = strconv.Itoa(run.Info.DatasetSize)
	}
	in := htmlpage.RunInput{Result: r, RunPath: ref.Path, Back: rp.back, Derived: []sinks.Derivation{
		{Name: "source", Value: run.Info.SourceFormat, Source: run.Info.SourcePath},
		{Name: "tokenizer", Value: run.Tokenizer, Source: "sweep"},
		{Name: "dataset size", Value: size, Source: run.Info.DatasetSizeSource},
		{Name: "config", Value: sinks.ConfigID(p), Source: "sweep"},
	}}
	err := sweep.RefuseLinkedDir(rp.dir)
	if err == nil {
		err = os.MkdirAll(rp.dir, 0o755)
	}
	if err == nil {
		err = writeOutput(path, nil, func(w io.Writer) error { return htmlpage.WriteRun(w, in) })
	}
	if err != nil {
		rp.mu.Lock()
		rp.failed++
		if rp.first == nil {
			rp.first = fmt.Errorf("%s: %w", path, err)
		}
		rp.mu.Unlock()
	}
}

// report prints how many pages failed, if any.
func (rp *runPages) report(stderr io.Writer) {
	if rp.failed > 0 {
		fmt.Fprintf(stderr, "warning: %d run pages not written; the first: %v\n", rp.failed, rp.first)
	}
}

// htmlpageLink is target relative to the directory dir, slash-separated
// for an href (target as given when no relative path exists).
func htmlpageLink(dir, target string) string {
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	rel, err := filepath.Rel(abs(dir), abs(target))
	if err != nil {
		return filepath.ToSlash(target)
	}
	return filepath.ToSlash(rel)
}
