package main

import (
	"context"
	"fmt"
	"io"
)

// version and commit are set at link time by the Makefile
// (-ldflags "-X main.version=… -X main.commit=…").
var (
	version = "dev"
	commit  = "unknown"
)

func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) error {
	_, err := fmt.Fprintf(stdout, "steadysweep %s (%s)\n", version, commit)
	return err
}
