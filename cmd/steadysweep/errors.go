package main

import (
	"errors"
	"strings"
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
