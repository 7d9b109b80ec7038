package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar/samplesparquet"
	"github.com/steadysweep/steadysweep/corpora"
	"github.com/steadysweep/steadysweep/sinks"
)

func runIngest(fs *pflag.FlagSet) commandBody {
	lf := loadFlags{keepTable: true} // the runs' columns are the output
	lf.register(fs)
	out := fs.StringP("output", "o", "", "Parquet file to write (required; - for standard output)")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if *out == "" || fs.NArg() == 0 {
			fs.Usage()
			return usagef("ingest needs at least one PATH and -o FILE")
		}
		// Found as sweep finds them, so run_id and run_rel are the rows'.
		runs, problems := corpora.Discover(fs.Args(), nil, nil)
		for _, p := range problems {
			fmt.Fprintf(stderr, "warning: %v\n", p)
		}
		if len(runs) == 0 {
			return fmt.Errorf("no runs found under %s", strings.Join(fs.Args(), ", "))
		}
		if err := lf.check(); err != nil {
			return err
		}
		var tables []samplesparquet.NamedTable
		loader := lf.loader(stderr)
		for _, ref := range runs {
			l, err := loader.LoadRun(ctx, ref.Path)
			if err != nil {
				return loadError(err)
			}
			t, err := l.Table()
			if err != nil {
				return err
			}
			tables = append(tables, samplesparquet.NamedTable{RunID: ref.RunID(), RunRel: ref.Rel, Table: t})
		}
		if err := writeOutput(*out, stdout, func(w io.Writer) error { return samplesparquet.Write(w, tables) }); err != nil {
			return fmt.Errorf("write %s: %w", *out, err)
		}
		if *out != "-" { // else stdout is the Parquet file
			if _, err := fmt.Fprintf(stdout, "wrote %s (%s)\n", *out, plural(len(tables), "run")); err != nil {
				return fmt.Errorf("write the summary: %w", err)
			}
		}
		return nil
	}
}

// plural is "1 run", "2 runs" (sinks.Count).
func plural(n int, noun string) string { return sinks.Count(n, noun) }
