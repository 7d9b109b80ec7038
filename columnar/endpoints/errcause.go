package endpoints

import (
	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/columnar/scan"
	"github.com/steadysweep/steadysweep/core"
)

// ErrorCause reads an error.generic payload ["ErrorData", type, message]
// (event-log spec §1.4) and classifies its text: an HTTP status,
// a timeout or a cancellation (classifyFailure without a first token);
// anything else names no cause.
func (d *LineDecoder) ErrorCause(line []byte, data scan.Value) contract.ErrCause {
	if data.Kind != scan.VArray {
		return contract.ErrCause{}
	}
	elems := scan.ArrayElems(d.Ps.data[:0], line, data)
	d.Ps.data = elems
	var typ, msg string
	if len(elems) > 1 && elems[1].Kind == scan.VString {
		typ = string(scan.AppendUnescaped(nil, line, elems[1]))
	}
	if len(elems) > 2 && elems[2].Kind == scan.VString {
		msg = string(scan.AppendUnescaped(nil, line, elems[2]))
	}
	k, c := contract.ClassifyFailure(0, typ, msg, false)
	if k == core.FailError {
		return contract.ErrCause{}
	}
	return contract.ErrCause{Kind: k, Code: c}
}

// applyErrorCauses refines the failure kinds fillDecodedColumns derived
// from the columns with the causes the error events named: a named cause
// (HTTP, timeout, cancelled) wins over midstream, as in classifyFailure.
func applyErrorCauses(dst *contract.Decoded) {
	s := &dst.Samples
	for idx, c := range dst.ErrCauses {
		if i := int(idx); i < s.Len() && s.Failed[i] {
			s.FailureKind[i] = c.Kind
			contract.SetFailCode(s, i, c.Code)
		}
	}
}
