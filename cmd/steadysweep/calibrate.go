package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/sweep/calibrate"
)

func runCalibrate(fs *pflag.FlagSet) commandBody {
	var o calibrate.Options
	fs.StringVar(&o.ReportPath, "report", "", "Markdown report `FILE` (default OUT_DIR/calibration.md; - for standard output, none to skip)")
	fs.StringVar(&o.PlotPath, "plot", "", "PNG of error vs parameter (default OUT_DIR/calibration.png; none to skip)")
	fs.StringVar(&o.ParquetPath, "parquet", "", "per-config scores (default OUT_DIR/calibration.parquet; none to skip)")
	fs.StringVar(&o.HTMLPath, "html", "", "also write a self-contained HTML page of the calibration to `FILE`")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if fs.NArg() != 1 {
			fs.Usage()
			return usagef("calibrate needs exactly one sweep output directory")
		}
		for _, f := range []struct{ name, path string }{{"--plot", o.PlotPath}, {"--parquet", o.ParquetPath}} {
			if f.path == "-" {
				return usagef("%s -: a binary file on standard output is not supported here; name a FILE, or none to skip it", f.name)
			}
		}
		// The package's "-" skips an output; ours is standard output.
		reportToStdout := o.ReportPath == "-"
		for _, p := range []*string{&o.ReportPath, &o.PlotPath, &o.ParquetPath} {
			if *p == "none" || *p == "-" {
				*p = "-"
			}
		}
		o.Out = fs.Arg(0)
		rep, err := calibrate.Calibrate(ctx, o)
		if err != nil {
			return err
		}
		if reportToStdout {
			return rep.WriteMarkdown(stdout)
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
}
