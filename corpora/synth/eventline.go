package synth

import (
	"bufio"
	"io"
	"strconv"
	"unicode/utf8"
)

// Topic strings of the upstream event log (event-log.md §1.3).
const (
	topicStarted      = "session.started"
	topicStartTrack   = "session.start_performance_tracking"
	topicStopTrack    = "session.stop_performance_tracking"
	topicEnded        = "session.ended"
	topicIssued       = "sample.issued"
	topicRecvFirst    = "sample.recv_first"
	topicComplete     = "sample.complete"
	topicErrorGeneric = "error.generic"
)

// lineWriter writes events.jsonl lines in the upstream EventRecord envelope:
// compact JSON, keys event_type, timestamp_ns, sample_uuid, conversation_id, turn,
// data in that order, then finish_reason and worker_id only on sample.complete.
// Errors are sticky: after the first write error every call is a no-op and err
// reports it.
type lineWriter struct {
	w     *bufio.Writer
	buf   []byte
	err   error
	lines int
	bytes int64
	// cutNext makes the next line the last one, written only up to half its
	// length and without a newline: how a killed logger leaves the file.
	cutNext  bool
	cut      bool
	cutRunes int // characters kept of the cut line
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{w: bufio.NewWriterSize(w, 1<<20), buf: make([]byte, 0, 4096)}
}

// begin starts a line with the envelope up to and including `"data":`.
// conversationID and turn are "" and 0 for single-turn runs (turn 0 is written
// as null; agentic turns start at 1).
func (lw *lineWriter) begin(topic string, ts int64, uuid []byte, conversationID string, turn int) {
	b := lw.buf[:0]
	b = append(b, `{"event_type":"`...)
	b = append(b, topic...)
	b = append(b, `","timestamp_ns":`...)
	b = strconv.AppendInt(b, ts, 10)
	b = append(b, `,"sample_uuid":"`...)
	b = append(b, uuid...)
	b = append(b, `","conversation_id":"`...)
	b = append(b, conversationID...)
	b = append(b, `","turn":`...)
	if turn > 0 {
		b = strconv.AppendInt(b, int64(turn), 10)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"data":`...)
	lw.buf = b
}

// finish closes the line, adding finish_reason and worker_id when given
// (finishReason "" and workerID < 0 omit them), and writes it.
func (lw *lineWriter) finish(finishReason string, workerID int) {
	b := lw.buf
	if finishReason != "" {
		b = append(b, `,"finish_reason":"`...)
		b = append(b, finishReason...)
		b = append(b, '"')
	}
	if workerID >= 0 {
		b = append(b, `,"worker_id":`...)
		b = strconv.AppendInt(b, int64(workerID), 10)
	}
	b = append(b, '}', '\n')
	lw.buf = b
	lw.flushLine()
}

// flushLine writes the buffered line, honouring cutNext.
func (lw *lineWriter) flushLine() {
	if lw.err != nil || lw.cut {
		return
	}
	line := lw.buf
	if lw.cutNext {
		// Cut at a rune boundary: a killed writer loses whole records'
		// tails, and an invalid UTF-8 byte would make readers reject the file.
		n := (len(line) - 1) / 2
		for n > 0 && !utf8.RuneStart(line[n]) {
			n--
		}
		line = line[:n]
		lw.cut = true
		lw.cutRunes = utf8.RuneCount(line)
	}
	n, err := lw.w.Write(line)
	lw.bytes += int64(n)
	if err != nil {
		lw.err = err
		return
	}
	lw.lines++
}

// session writes a session event (empty uuid, null data).
func (lw *lineWriter) session(topic string, ts int64) {
	lw.begin(topic, ts, nil, "", 0)
	lw.buf = append(lw.buf, "null"...)
	lw.finish("", -1)
}

// close flushes buffered output.
func (lw *lineWriter) close() error {
	if lw.err != nil {
		return lw.err
	}
	if err := lw.w.Flush(); err != nil {
		lw.err = err
	}
	return lw.err
}

// appendJSONString appends s as a JSON string without escaping non-ASCII or
// HTML characters, as Python's json.dumps(ensure_ascii=False) and msgspec do.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}
