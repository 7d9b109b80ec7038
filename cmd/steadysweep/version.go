package main

import (
	"context"
	"io"
	"strings"

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

// versionLine is "steadysweep VERSION (COMMIT)", the commit left out when
// the version already names it (git describe --always on an untagged
// tree is the commit itself, maybe with -dirty).
func versionLine(version, commit string) string {
	if strings.Contains(version, commit) {
		return "steadysweep " + version + "\n"
	}
	return "steadysweep " + version + " (" + commit + ")\n" // not fmt: --version touches none of its code
}
