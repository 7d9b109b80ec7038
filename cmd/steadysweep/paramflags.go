package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/core"
)

// paramFlag is an analyze flag that sets one parameter to its text, as
// --set does: its name, type, default and usage come from the parameter
// table (core.ParamSpecs), and a value is checked by the table's parser
// as it is parsed.
type paramFlag struct {
	spec core.ParamSpec
	// flag is the flag's name without its dashes.
	flag string
	text string
}

func (f *paramFlag) String() string { return f.text }

// Set checks value by the parameter's parser (a range is Validate's).
func (f *paramFlag) Set(value string) error {
	var p core.Params
	if err := f.spec.SetText(&p, strings.TrimSpace(value)); err != nil {
		return err
	}
	f.text = value
	return nil
}

// Type is the value's name in the flag's usage line, as pflag's own
// flags of the kind name it.
func (f *paramFlag) Type() string {
	switch f.spec.Kind {
	case core.KindInteger:
		return "int"
	case core.KindNumber:
		return "float64"
	}
	return "string"
}

// plainFlag is the flag that sets parameter s alone, named after it
// (superpass_size: --superpass-size), or "" when its flag does more or
// other than that (--compat picks the defaults, --warmup sets two
// parameters, --no-min-duration negates, --min-duration-floor takes a
// duration): those are analyzeFlags' own.
func plainFlag(s core.ParamSpec) string {
	name := strings.ReplaceAll(s.Name, "_", "-")
	if s.Flag != "--"+name || s.Name == "compat" {
		return ""
	}
	return name
}

// registerParamFlags defines the plain flag of every parameter that has
// one, with d's value as its default, and returns them in table order.
func registerParamFlags(fs *pflag.FlagSet, d core.Params) []*paramFlag {
	var out []*paramFlag
	for _, s := range core.ParamSpecs() {
		name := plainFlag(s)
		if name == "" {
			continue
		}
		f := &paramFlag{spec: s, flag: name, text: s.Text(&d)}
		fs.Var(f, name, s.Doc)
		out = append(out, f)
	}
	return out
}
