package sweep

import "fmt"

// A run's loader warnings say which of its files were ignored: a
// config.yaml that is a FIFO or a device (never opened), a sidecar that
// cannot be read or parsed. analyze prints them; a sweep, which prints no
// per-run warnings, names the runs in its final summary (WarningLines),
// so a skipped file is never silent.

// warned counts the analysed run of res in s when its loader warned.
func (s *Summary) warned(res runResult) {
	if len(res.warnings) == 0 {
		return
	}
	s.WarnedRuns++
	if len(s.Warned) >= maxFailures || len(res.rows) == 0 {
		return
	}
	r := &res.rows[0]
	name := r.RunRel
	if name == "" || name == "." {
		name = r.RunPath
	}
	w := res.warnings[0]
	if n := len(res.warnings) - 1; n > 0 {
		w += fmt.Sprintf(" (and %d more)", n)
	}
	s.Warned = append(s.Warned, RunFailure{Run: name, Reason: w})
}

// WarningLines names the runs whose loader warned (ignored files among),
// the first maxFailures of them, with the first warning; none when no run
// warned.
func (s Summary) WarningLines() []string {
	return countedRuns(s.WarnedRuns, "with loader warnings (analyze RUN prints them all)", s.Warned)
}
