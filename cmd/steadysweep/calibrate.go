package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/sweep/calibrate"
)

func runCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("calibrate", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var o calibrate.Options
	fs.StringVar(&o.ReportPath, "report", "", "Markdown report (default OUT_DIR/calibration.md; - for none)")
	fs.StringVar(&o.PlotPath, "plot", "", "PNG of error vs parameter (default OUT_DIR/calibration.png; - for none)")
	fs.StringVar(&o.ParquetPath, "parquet", "", "per-config scores (default OUT_DIR/calibration.parquet; - for none)")
	fs.StringVar(&o.HTMLPath, "html", "", "also write a self-contained HTML page of the calibration to `FILE`")
	setUsage(fs, "calibrate", stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usagef("calibrate needs exactly one sweep output directory")
	}
	o.Out = fs.Arg(0)
	rep, err := calibrate.Calibrate(ctx, o)
	if err != nil {
		return err
	}
	if err := rep.Table(stdout); err != nil {
		return err
	}
	for _, p := range []string{rep.ReportPath, rep.PlotPath, rep.ParquetPath, rep.HTMLPath} {
		if p != "" {
			fmt.Fprintf(stdout, "wrote %s\n", p)
		}
	}
	return nil
}
