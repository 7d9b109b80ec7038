package sinks

import "strconv"

// Count is n and noun, the noun plural unless n is 1: "1 super-pass",
// "2 super-passes", "0 configs". English's regular plural: -es after s,
// x, z, ch and sh, else -s (every noun our outputs count is regular).
func Count(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n == 1 {
		return s
	}
	for _, end := range []string{"s", "x", "z", "ch", "sh"} {
		if len(noun) >= len(end) && noun[len(noun)-len(end):] == end {
			return s + "es"
		}
	}
	return s + "s"
}
