package sinks

import "strings"

// partFileName is a part file's name taken apart: ".part-SHARD-SEQ.parquet"
// and its temporaries (atomicfile's ".NAME.RANDOM.tmp").
type partFileName struct {
	shard, seq string
	// hidden: the name starts with "."; temporary: it ends with a
	// ".RANDOM.tmp" suffix.
	hidden, temporary bool
}

// parsePartName matches name as the regular expression
// `^\.?part-(.+)-(\d+)\.parquet(\.[0-9a-z]+\.tmp)?$` does (group 1 the
// shard, group 2 the sequence number, with regexp's leftmost-first
// choice: the longest shard), hand-written so the binary does not link
// package regexp, whose inits (and unicode's tables below them) ran in
// every process (issue 32). part_name_test.go holds it to the regexp.
func parsePartName(name string) (partFileName, bool) {
	var p partFileName
	rest := name
	if strings.HasPrefix(rest, ".") {
		p.hidden, rest = true, rest[1:]
	}
	if !strings.HasPrefix(rest, "part-") {
		return partFileName{}, false
	}
	rest = rest[len("part-"):]
	// `.` stops at a newline: the shard lies before the first one.
	limit := len(rest)
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		limit = nl
	}
	// Greedy (.+): the last '-' whose tail matches wins.
	for i := limit - 1; i >= 1; i-- {
		if rest[i] != '-' {
			continue
		}
		seq, temporary, ok := partTail(rest[i+1:])
		if ok {
			p.shard, p.seq, p.temporary = rest[:i], seq, temporary
			return p, true
		}
	}
	return partFileName{}, false
}

// partTail matches `^(\d+)\.parquet(\.[0-9a-z]+\.tmp)?$`.
func partTail(s string) (seq string, temporary, ok bool) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 || !strings.HasPrefix(s[n:], ".parquet") {
		return "", false, false
	}
	tail := s[n+len(".parquet"):]
	if tail == "" {
		return s[:n], false, true
	}
	mid, ok := strings.CutSuffix(tail, ".tmp")
	if !ok || len(mid) < 2 || mid[0] != '.' {
		return "", false, false
	}
	for i := 1; i < len(mid); i++ {
		if c := mid[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
			return "", false, false
		}
	}
	return s[:n], true, true
}

// isPublishedPart reports whether name matches `^part-.+-\d+\.parquet$`: a
// finished part file, not hidden and not a temporary.
func isPublishedPart(name string) bool {
	p, ok := parsePartName(name)
	return ok && !p.hidden && !p.temporary
}
