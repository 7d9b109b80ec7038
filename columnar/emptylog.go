package columnar

import (
	"os"
)

// EmptyLogError reports a log without a line to read: nothing in it can be
// analysed, and saying so names the cause (a missing tokenizer or
// super-pass size, resolved for the log's content, would be the wrong
// one).
type EmptyLogError struct{ Path string }

func (e *EmptyLogError) Error() string {
	return e.Path + ": the log is empty (no events): nothing to analyse (did the run die before logging?)"
}

// EmptyFile returns an EmptyLogError when path is a regular file of zero
// bytes (checked before anything is resolved for the log), else nil.
func EmptyFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		return &EmptyLogError{Path: path}
	}
	return nil
}

// EmptyLoad returns an EmptyLogError when a load of the log at path read
// no event, no sample and no bad line (blank lines only, or a compressed
// empty stream), else nil.
func EmptyLoad(path string, s *Summary) error {
	if len(s.Events) == 0 && s.Samples == 0 && s.ProblemTotal() == 0 {
		return &EmptyLogError{Path: path}
	}
	return nil
}
