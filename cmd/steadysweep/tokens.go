package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

func runTokens(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("tokens", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("tokenizer", "", "tokenizer.json path or directory, Hugging Face model id in the local cache, or 'words'")
	model := fs.String("model", "", "model name to look up in the tokenizer registry")
	ids := fs.Bool("ids", false, "also write the token ids")
	setUsage(fs, "tokens", stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if fs.NArg() != 0 {
		return usagef("tokens takes no arguments (texts come on stdin)")
	}
	c, _, err := tokenizer.Resolve(*spec, *model)
	if err != nil {
		return usageError{fmt.Errorf("tokenizer: %w", err)}
	}
	return tokenizer.RunTokens(ctx, os.Stdin, stdout, c, *ids)
}
