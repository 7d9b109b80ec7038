package contract

import (
	"github.com/steadysweep/steadysweep/core"
)

// maxFirstProblems is how many problems of each kind Summary keeps.
const maxFirstProblems = 5

// Summary describes one decoded events stream besides its samples.
type Summary struct {
	// File is the events file name used in messages.
	File string `json:"file"`
	// Bytes is the number of (decompressed) bytes read; Lines the number
	// of physical lines.
	Bytes int64 `json:"bytes"`
	Lines int64 `json:"lines"`
	// Events counts parsed lines by event_type ("other" for a missing or
	// non-string type).
	Events map[string]int64 `json:"events"`
	// Problems counts problems by kind, keeping the first few of each
	// with their line numbers. Ordered by Kind.
	Problems []ProblemCount `json:"problems,omitempty"`
	// Truncated reports a log without session.ended or with a cut last
	// line; TruncatedReason says which.
	Truncated       bool   `json:"truncated"`
	TruncatedReason string `json:"truncated_reason,omitempty"`
	// TrackingStartNs is the timestamp of the first
	// start_performance_tracking event, TrackingStopNs of the last stop
	// (-1 when absent or without timestamp); TrackingWindows counts start
	// events.
	TrackingStartNs int64 `json:"tracking_start_ns"`
	TrackingStopNs  int64 `json:"tracking_stop_ns"`
	TrackingWindows int   `json:"tracking_windows"`
	// Mode is "agentic" when tracked samples carry conversation ids,
	// "streaming" when any has a first token, else "non-streaming".
	Mode string `json:"mode"`
	// Samples, Completed, Failed, Pending and Retries count the tracked
	// samples, those with a timestamped COMPLETE, the failed ones, those
	// still pending at the end, and the repeated ISSUED events.
	Samples   int `json:"samples"`
	Completed int `json:"completed"`
	Failed    int `json:"failed"`
	Pending   int `json:"pending"`
	Retries   int `json:"retries"`
	// Counter is the token counter's identity ("" when none).
	Counter string `json:"counter"`
	// TokenizeSample is the per-super-pass cap on counted samples (0 =
	// all counted); SuperPassSize the S it was applied with.
	TokenizeSample int `json:"tokenize_sample"`
	SuperPassSize  int `json:"superpass_size"`
	// EventAnomalies are the impossible events the state machine saw
	// (anomaly.go), per kind; RunInfo.EventAnomalies carries them on.
	EventAnomalies []core.EventAnomaly `json:"event_anomalies,omitempty"`
}

// ProblemCount is the tally of one kind of problem.
type ProblemCount struct {
	Kind  string        `json:"kind"`
	Count int64         `json:"count"`
	First []*ParseError `json:"-"`
	// FirstLines and FirstFields mirror First for serialization.
	FirstLines  []int    `json:"first_lines"`
	FirstFields []string `json:"first_fields"`
}

// Problem returns the tally of kind k (zero when none).
func (s *Summary) Problem(k Kind) ProblemCount {
	for _, p := range s.Problems {
		if p.Kind == k.String() {
			return p
		}
	}
	return ProblemCount{Kind: k.String()}
}

// ProblemTotal returns the number of problems of all kinds.
func (s *Summary) ProblemTotal() int64 {
	var n int64
	for _, p := range s.Problems {
		n += p.Count
	}
	return n
}

// AddProblem counts one problem.
func (s *Summary) AddProblem(k Kind, line int64, field string) {
	idx := -1
	for i := range s.Problems {
		if s.Problems[i].Kind == k.String() {
			idx = i
			break
		}
	}
	if idx < 0 {
		// Keep kinds ordered.
		idx = len(s.Problems)
		for i := range s.Problems {
			if kk, _ := kindByName(s.Problems[i].Kind); kk > k {
				idx = i
				break
			}
		}
		s.Problems = append(s.Problems, ProblemCount{})
		copy(s.Problems[idx+1:], s.Problems[idx:])
		s.Problems[idx] = ProblemCount{Kind: k.String()}
	}
	p := &s.Problems[idx]
	p.Count++
	if len(p.First) < maxFirstProblems {
		p.First = append(p.First, &ParseError{File: s.File, Line: int(line), Field: field, Err: k.Err()})
		p.FirstLines = append(p.FirstLines, int(line))
		p.FirstFields = append(p.FirstFields, field)
	}
}

// RestoreFirst rebuilds First from FirstLines/FirstFields after a JSON
// round trip.
func (s *Summary) RestoreFirst() {
	for i := range s.Problems {
		p := &s.Problems[i]
		k, _ := kindByName(p.Kind)
		p.First = p.First[:0]
		for j, line := range p.FirstLines {
			field := ""
			if j < len(p.FirstFields) {
				field = p.FirstFields[j]
			}
			p.First = append(p.First, &ParseError{File: s.File, Line: line, Field: field, Err: k.Err()})
		}
	}
}

// Warnings renders the kept problems as messages, in kind order.
func (s *Summary) Warnings() []string {
	var out []string
	for _, p := range s.Problems {
		for _, e := range p.First {
			out = append(out, e.Error())
		}
		if extra := p.Count - int64(len(p.First)); extra > 0 {
			out = append(out, s.File+": "+Itoa(extra)+" more "+p.Kind+" problems")
		}
	}
	return out
}

func Itoa(n int64) string {
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
