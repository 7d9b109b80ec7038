package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/sinks"
)

func runSchema(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("schema", pflag.ContinueOnError)
	if helped, err := parseFlags(fs, "schema", args, stdout, stderr); helped || err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("schema takes no arguments")
	}
	text := fmt.Sprintf("# OUT/rows/part-*.parquet: one row per run × config\n%v\n# OUT/series/part-*.parquet: per-super-pass trajectories, once per run\n%v\n",
		sinks.RowsSchema(), sinks.SeriesSchema())
	if _, err := io.WriteString(stdout, text); err != nil {
		return fmt.Errorf("write the schemas: %w", err)
	}
	return nil
}
