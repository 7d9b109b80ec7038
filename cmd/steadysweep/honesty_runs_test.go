package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The generated runs of the honesty tests (issue 14): corpora/synth
// presets, some with their events.jsonl rewritten into a shape the
// generator does not make (a non-streaming run, impossible timestamps).

// logLine is one decoded events.jsonl line (numbers kept exact).
type logLine map[string]any

func decodeLog(t *testing.T, path string) []logLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []logLine
	for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		dec := json.NewDecoder(strings.NewReader(l))
		dec.UseNumber()
		var m logLine
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, m)
	}
	return out
}

func writeLog(t *testing.T, path string, lines []logLine) {
	t.Helper()
	var b bytes.Buffer
	for _, l := range lines {
		enc, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(enc)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (l logLine) kind() string { s, _ := l["event_type"].(string); return s }
func (l logLine) uuid() string { s, _ := l["sample_uuid"].(string); return s }
func (l logLine) ts() int64 {
	n, _ := l["timestamp_ns"].(json.Number).Int64()
	return n
}
func (l logLine) setTS(ts int64) { l["timestamp_ns"] = json.Number(itoa64(ts)) }

func itoa64(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// nonStreamingRun rewrites a synth run as the endpoints client logs a
// non-streaming one: no recv_first lines, every output one string (the
// chunks joined). It returns the run and the whole outputs' word count.
func nonStreamingRun(t *testing.T, preset string) (string, int64) {
	dir := synthRun(t, preset, 7)
	path := filepath.Join(dir, "events.jsonl")
	var out []logLine
	var words int64
	tracking := false
	for _, l := range decodeLog(t, path) {
		switch l.kind() {
		case "session.start_performance_tracking":
			tracking = true
		case "session.stop_performance_tracking":
			tracking = false
		case "sample.recv_first":
			continue
		case "sample.complete":
			if data, ok := l["data"].([]any); ok && len(data) > 1 {
				if chunks, ok := data[1].([]any); ok {
					var parts []string
					for _, c := range chunks {
						s, _ := c.(string)
						parts = append(parts, s)
					}
					text := strings.Join(parts, "")
					data[1] = text
					if tracking {
						words += int64(len(strings.Fields(text)))
					}
				}
			}
		}
		out = append(out, l)
	}
	writeLog(t, path, out)
	return dir, words
}

// brokenTiming rewrites every k-th tracked sample's timing with breakk
// (given the sample's ISSUED, recv_first and COMPLETE lines) and returns
// the run, the number of samples broken and the 1-based line of the first
// broken event (the line at kind).
func brokenTiming(t *testing.T, preset string, k int, kind string, breakIt func(issued, first, complete logLine)) (string, int, int) {
	dir := synthRun(t, preset, 11)
	path := filepath.Join(dir, "events.jsonl")
	lines := decodeLog(t, path)
	type sample struct{ issued, first, complete int }
	idx := map[string]*sample{}
	var order []string
	for i, l := range lines {
		u := l.uuid()
		switch l.kind() {
		case "sample.issued":
			if idx[u] == nil {
				idx[u] = &sample{issued: i, first: -1, complete: -1}
				order = append(order, u)
			}
		case "sample.recv_first":
			if s := idx[u]; s != nil && s.first < 0 {
				s.first = i
			}
		case "sample.complete":
			if s := idx[u]; s != nil && s.complete < 0 && l["data"] != nil {
				s.complete = i
			}
		}
	}
	n, firstLine := 0, 0
	for j, u := range order {
		s := idx[u]
		if j%k != 0 || s.first < 0 || s.complete < 0 {
			continue
		}
		breakIt(lines[s.issued], lines[s.first], lines[s.complete])
		line := s.complete + 1
		if kind == "first" {
			line = s.first + 1
		}
		if firstLine == 0 || line < firstLine {
			firstLine = line
		}
		n++
	}
	writeLog(t, path, lines)
	return dir, n, firstLine
}
