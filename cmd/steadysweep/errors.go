package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/sweep"
)

// flagNamed rewrites the errors of core.Params.Validate, each "name: …",
// to name the flag that set the parameter ("--warmup: must be ≥ 0, got
// -3", not "warmup_fixed: …"), and joins several on one line.
func flagNamed(err error, flags map[string]string) error {
	var parts []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		parts = j.Unwrap()
	} else {
		parts = []error{err}
	}
	msgs := make([]string, 0, len(parts))
	for _, e := range parts {
		msg := e.Error()
		if name, rest, ok := strings.Cut(msg, ": "); ok {
			if flag, ok := flags[name]; ok {
				msg = flag + ": " + rest
			}
		}
		msgs = append(msgs, msg)
	}
	return errors.New(strings.Join(msgs, "; "))
}

// withResolveHint adds "(hint)" to the error of a path that could not be
// resolved into a run (sweep.ResolveError), unless the error says itself
// which runs to pass (columnar.ErrSeveralRuns: a contrary hint would
// follow it).
func withResolveHint(err error, hint string) error {
	var re *sweep.ResolveError
	if !errors.As(err, &re) || errors.Is(err, columnar.ErrSeveralRuns) {
		return err
	}
	return fmt.Errorf("%w (%s)", err, hint)
}
