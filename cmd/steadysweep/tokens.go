package main

import (
	"context"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

func runTokens(fs *pflag.FlagSet) commandBody {
	spec := fs.String("tokenizer", "", "tokenizer.json path or directory, Hugging Face model id in the local cache, or 'words'")
	model := fs.String("model", "", "model name to look up in the tokenizer registry")
	ids := fs.Bool("ids", false, "also write the token ids")
	return func(ctx context.Context, fs *pflag.FlagSet, stdout, stderr io.Writer) error {
		if fs.NArg() != 0 {
			return usagef("tokens takes no arguments (texts come on stdin)")
		}
		c, _, err := tokenizer.Resolve(*spec, *model)
		if err != nil {
			return usageError{err}
		}
		return tokenizer.RunTokens(ctx, os.Stdin, stdout, c, *ids)
	}
}
