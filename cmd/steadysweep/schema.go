package main

import (
	"context"
	"fmt"
	"io"

	"github.com/steadysweep/steadysweep/sinks"
)

func runSchema(_ context.Context, args []string, stdout, _ io.Writer) error {
	if len(args) != 0 {
		return usagef("schema takes no arguments")
	}
	fmt.Fprintln(stdout, "# OUT/rows/part-*.parquet: one row per run × config")
	fmt.Fprintln(stdout, sinks.RowsSchema())
	fmt.Fprintln(stdout, "# OUT/series/part-*.parquet: per-super-pass trajectories, once per run")
	fmt.Fprintln(stdout, sinks.SeriesSchema())
	return nil
}
