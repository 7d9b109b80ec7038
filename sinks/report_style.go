package sinks

// style is an ANSI SGR style of the report; the zero style is plain.
type style string

// The report's styles: the headline words carry the verdict's meaning in
// colour (good, questionable, bad) and headings are bold, so the eye finds
// the result before the diagnostics.
const (
	plain   style = ""
	bold    style = "1"
	dim     style = "2"
	good    style = "1;32"
	warn    style = "1;33"
	bad     style = "1;31"
	heading style = "1;36"
)

// palette applies styles when colour is on and is the identity otherwise,
// so the plain report has no escape sequences at all.
type palette struct{ color bool }

func (p palette) paint(st style, s string) string {
	if !p.color || st == plain || s == "" {
		return s
	}
	return "\x1b[" + string(st) + "m" + s + "\x1b[0m"
}
