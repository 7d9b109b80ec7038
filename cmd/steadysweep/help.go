package main

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/steadysweep/steadysweep/core"
)

// The help pages, one per command (help/NAME.txt), embedded so --help and
// the documentation are one text. {{flags}} stands for the flag list,
// {{commands}} for the command list, {{params}} for the detector
// parameters (paramsHelp).
//
//go:embed help/*.txt
var helpPages embed.FS

// helpPage returns the help page of a command with its placeholders
// filled.
func helpPage(name string, fs *pflag.FlagSet) string {
	page := "usage: steadysweep " + name + " [flags]\n\nflags:\n{{flags}}\n"
	if b, err := helpPages.ReadFile("help/" + name + ".txt"); err == nil {
		page = string(b)
	}
	if fs != nil {
		page = strings.Replace(page, "{{flags}}\n", fs.FlagUsagesWrapped(helpColumns), 1)
	}
	page = strings.Replace(page, "{{reference}}", referenceDifferences(), 1)
	page = strings.Replace(page, "{{params}}\n", paramsHelp(), 1)
	if strings.Contains(page, "{{commands}}") {
		var cs strings.Builder
		for _, c := range commands() {
			fmt.Fprintf(&cs, "  %-9s %s\n", c.name, c.summary)
		}
		page = strings.Replace(page, "{{commands}}\n", cs.String(), 1)
	}
	return page
}

// paramsHelp lists every detector parameter from its one description
// (core.ParamSpecs): name, kind, steadysweep's default (and the
// reference's where it differs), unit, the analyze flag that also sets
// it, and its meaning.
func paramsHelp() string {
	var b strings.Builder
	for _, p := range core.ParamSpecs() {
		def := p.Default
		if def == "" {
			def = `""`
		}
		line := p.Name + " (" + p.Kind + ") default " + def
		if p.Reference != p.Default {
			line += ", reference " + p.Reference
		}
		if p.Unit != "" {
			line += "; " + p.Unit
		}
		if p.Flag != "" {
			line += "; also " + p.Flag
		}
		b.WriteString(indentWords(line, "  ", "      ", helpColumns) + "\n")
		b.WriteString(indentWords(p.Doc, "      ", "      ", helpColumns) + "\n")
	}
	return b.String()
}

// helpColumns is the width help pages fit: an 80-column terminal.
const helpColumns = 80

// referenceDifferences lists the parameters whose reference default
// differs from steadysweep's, by analyze flag: the defaults help shows are
// steadysweep's, and --compat reference starts from the reference's.
func referenceDifferences() string {
	d, r := core.DefaultParams(), core.ReferenceParams()
	var diffs []string
	for _, n := range core.Names() {
		dv, _ := d.Get(n)
		rv, _ := r.Get(n)
		if n == "compat" || dv == rv {
			continue
		}
		name := n
		if f := analyzeParamFlags()[n]; f != "" {
			name = f
		}
		if n == "min_dur_floor_s" && dv == "0" {
			dv = "config.yaml's min_duration_ms"
		}
		diffs = append(diffs, fmt.Sprintf("%s %s (not %s)", name, rv, dv))
	}
	if len(diffs) == 0 {
		return "the same values"
	}
	return strings.Join(diffs, ", ")
}

// parseFlags parses args into fs, the flags of command name. --help (-h)
// prints the command's help page on stdout and reports helped (exit 0); a
// bad flag is a usage error that names it (and the flag it most likely
// meant); afterwards fs.Usage prints the usage line on stderr, for the
// command's own usage errors.
func parseFlags(fs *pflag.FlagSet, name string, args []string, stdout, stderr io.Writer) (helped bool, err error) {
	fs.SetOutput(io.Discard) // pflag prints nothing itself: errors go back to run
	fs.Usage = func() {}
	err = fs.Parse(args)
	fs.Usage = func() { io.WriteString(stderr, usageLine(name, fs)) }
	switch {
	case errors.Is(err, pflag.ErrHelp):
		_, err = io.WriteString(stdout, helpPage(name, fs))
		return true, err
	case err != nil:
		var names []string
		fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		if hint := unknownFlagHint(err.Error(), names); hint != "" {
			return false, usagef("%s: %v; %s (steadysweep help %s)", name, err, hint, name)
		}
		return false, usagef("%s: %v (steadysweep help %s)", name, err, name)
	}
	return false, nil
}

// usageLine is what a command's usage error shows above its one-line
// error: the help page's usage line and where the rest is, not the whole
// page (which buries the error).
func usageLine(name string, fs *pflag.FlagSet) string {
	first, _, _ := strings.Cut(helpPage(name, fs), "\n")
	return first + "\n(steadysweep help " + name + ": every flag)\n"
}
