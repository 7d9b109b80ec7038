package calibration

import (
	"errors"
	"fmt"
	"io"
)

// printer writes formatted text to w and keeps every write error, so a
// renderer writes on to the end and reports all failures at once.
type printer struct {
	w    io.Writer
	errs []error
}

func (p *printer) printf(format string, a ...any) {
	_, err := fmt.Fprintf(p.w, format, a...)
	p.errs = append(p.errs, err)
}

// add keeps err, the result of a nested renderer.
func (p *printer) add(err error) { p.errs = append(p.errs, err) }

// err joins the kept errors; nil when every write succeeded.
func (p *printer) err() error { return errors.Join(p.errs...) }
