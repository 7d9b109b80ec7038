package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// version and commit are set at link time by the Makefile
// (-ldflags "-X main.version=… -X main.commit=…").
var (
	version = "dev"
	commit  = "unknown"
)

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("version", pflag.ContinueOnError)
	if helped, err := parseFlags(fs, "version", args, stdout, stderr); helped || err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("version takes no arguments")
	}
	_, err := fmt.Fprintf(stdout, "steadysweep %s (%s)\n", version, commit)
	return err
}
