package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/sinks"
)

func runSchema(fs *pflag.FlagSet) commandBody {
	return func(_ context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if fs.NArg() != 0 {
			return usagef("schema takes no arguments")
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# OUT/rows/part-*.parquet: one row per run × config (schema_version %d)\n", sinks.SchemaVersion)
		writeColumnDocs(&b, sinks.RowsColumns())
		fmt.Fprintf(&b, "\n# OUT/series/part-*.parquet: per-super-pass trajectories, once per run (schema_version %d)\n", sinks.SchemaVersion)
		writeColumnDocs(&b, sinks.SeriesColumns())
		if _, err := io.WriteString(stdout, b.String()); err != nil {
			return fmt.Errorf("write the schemas: %w", err)
		}
		return nil
	}
}

// writeColumnDocs writes one aligned line per column: name, Arrow type,
// unit ("-" for none) and meaning.
func writeColumnDocs(b *strings.Builder, cols []sinks.ColumnDoc) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "column\ttype\tunit\tmeaning")
	for _, c := range cols {
		unit := c.Unit
		if unit == "" {
			unit = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Name, c.Type, unit, c.Doc)
	}
	tw.Flush() // a strings.Builder does not fail
}
