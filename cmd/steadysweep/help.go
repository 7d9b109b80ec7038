package main

import (
	"embed"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// The help pages, one per command (help/NAME.txt), embedded so --help and
// the documentation are one text. {{flags}} stands for the flag list,
// {{commands}} for the command list.
//
//go:embed help/*.txt
var helpPages embed.FS

// helpPage returns the help page of a command with its placeholders
// filled.
func helpPage(name string, fs *pflag.FlagSet) string {
	b, err := helpPages.ReadFile("help/" + name + ".txt")
	if err != nil {
		return "usage: steadysweep " + name + " [flags]\n{{flags}}\n"
	}
	page := string(b)
	if fs != nil {
		page = strings.Replace(page, "{{flags}}\n", fs.FlagUsages(), 1)
	}
	if strings.Contains(page, "{{commands}}") {
		var cs strings.Builder
		for _, c := range commands() {
			fmt.Fprintf(&cs, "  %-9s %s\n", c.name, c.summary)
		}
		page = strings.Replace(page, "{{commands}}\n", cs.String(), 1)
	}
	return page
}

// setUsage makes fs print the command's help page.
func setUsage(fs *pflag.FlagSet, name string, w io.Writer) {
	fs.Usage = func() { io.WriteString(w, helpPage(name, fs)) }
}
