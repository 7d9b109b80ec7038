package main

import (
	"context"
	"io"

	"github.com/spf13/pflag"
)

// version and commit are set at link time by the Makefile
// (-ldflags "-X main.version=… -X main.commit=…").
var (
	version = "dev"
	commit  = "unknown"
)

func runVersion(fs *pflag.FlagSet) commandBody {
	return func(_ context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if fs.NArg() != 0 {
			return usagef("version takes no arguments")
		}
		_, err := io.WriteString(stdout, versionLine(version, commit))
		return err
	}
}
