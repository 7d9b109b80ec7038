package synth

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// event is one decoded events.jsonl line with its keys in file order.
type event struct {
	keys   []string
	fields map[string]json.RawMessage
}

func (e event) str(key string) string {
	var s string
	_ = json.Unmarshal(e.fields[key], &s)
	return s
}

func (e event) int64(key string) int64 {
	var v int64
	_ = json.Unmarshal(e.fields[key], &v)
	return v
}

// decodeEvent decodes one JSON object line in a single pass, keeping its
// top-level keys in order and each value raw.
func decodeEvent(line []byte) (event, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	tok, err := dec.Token()
	if err != nil {
		return event{}, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return event{}, fmt.Errorf("not an object: %v", tok)
	}
	e := event{fields: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return event{}, err
		}
		key := tok.(string)
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return event{}, err
		}
		e.keys = append(e.keys, key)
		e.fields[key] = value
	}
	if _, err := dec.Token(); err != nil {
		return event{}, err
	}
	if dec.More() {
		return event{}, fmt.Errorf("data after the object")
	}
	return e, nil
}

// readEvents decodes every complete line of an events.jsonl file. A final line
// without a newline is returned separately as tail.
func readEvents(t *testing.T, path string) (events []event, tail []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	lines := bytes.Split(data, []byte("\n"))
	tail = lines[len(lines)-1]
	for i, line := range lines[:len(lines)-1] {
		e, err := decodeEvent(line)
		if err != nil {
			t.Fatalf("%s line %d: %v", path, i+1, err)
		}
		events = append(events, e)
	}
	return events, tail
}

// issueStamps are the timestamp_ns of the log's ISSUED events in log
// order: one per issue, so its length is the number of samples issued.
func issueStamps(events []event) []int64 {
	var stamps []int64
	for _, e := range events {
		if e.str("event_type") == topicIssued {
			stamps = append(stamps, e.int64("timestamp_ns"))
		}
	}
	return stamps
}

// outputWordsAfterFirst returns the whitespace word count of the streamed text
// after the first chunk of a TextModelOutput payload, and whether the sample has
// one: plain streams are [first, rest]; reasoning streams have the content
// string in output and [first, rest] in reasoning, and the text after the first
// chunk is rest + content.
func outputWordsAfterFirst(data json.RawMessage) (int, bool) {
	var payload []json.RawMessage
	if err := json.Unmarshal(data, &payload); err != nil || len(payload) < 3 {
		return 0, false
	}
	var chunks []string
	if err := json.Unmarshal(payload[1], &chunks); err == nil {
		if len(chunks) < 2 {
			return 0, false
		}
		return len(strings.Fields(strings.Join(chunks[1:], ""))), true
	}
	var content string
	var reasoning []string
	if json.Unmarshal(payload[1], &content) != nil || json.Unmarshal(payload[2], &reasoning) != nil || len(reasoning) == 0 {
		return 0, false
	}
	return len(strings.Fields(strings.Join(reasoning[1:], "") + content)), true
}

// measuredTPOT recomputes each sample's TPOT in ns from the events alone, and
// returns the uuids in (first) issue order.
func measuredTPOT(events []event) (issueOrder []string, tpot map[string]float64) {
	first := map[string]int64{}
	seen := map[string]bool{}
	tracking := false
	tpot = map[string]float64{}
	for _, e := range events {
		u := e.str("sample_uuid")
		switch e.str("event_type") {
		case topicStartTrack:
			tracking = true
		case topicStopTrack:
			tracking = false
		case topicIssued:
			if tracking && !seen[u] {
				issueOrder = append(issueOrder, u)
			}
			seen[u] = true
		case topicRecvFirst:
			if _, dup := first[u]; !dup {
				first[u] = e.int64("timestamp_ns")
			}
		case topicComplete:
			if words, ok := outputWordsAfterFirst(e.fields["data"]); ok && words > 0 {
				tpot[u] = float64(e.int64("timestamp_ns")-first[u]) / float64(words)
			}
		}
	}
	return issueOrder, tpot
}

// presetSpec is PresetSpec(name, seed), failing the test or benchmark on
// its error.
func presetSpec(t testing.TB, name string, seed uint64) Spec {
	t.Helper()
	spec, err := PresetSpec(name, seed)
	if err != nil {
		t.Fatalf("PresetSpec(%q): %v", name, err)
	}
	return spec
}

// generatePreset writes preset name with seed into a temp dir.
func generatePreset(t *testing.T, name string, seed uint64) (string, Truth) {
	t.Helper()
	spec := presetSpec(t, name, seed)
	dir := filepath.Join(t.TempDir(), name)
	truth, err := Generate(dir, spec)
	if err != nil {
		t.Fatalf("Generate(%q): %v", name, err)
	}
	return dir, truth
}

// keySignature is the ordered key list of an event, e.g.
// "event_type,timestamp_ns,...,data".
func keySignature(e event) string { return strings.Join(e.keys, ",") }

// signaturesByType collects the distinct key signatures per event type.
func signaturesByType(events []event) map[string][]string {
	out := map[string][]string{}
	for _, e := range events {
		typ, sig := e.str("event_type"), keySignature(e)
		if !slices.Contains(out[typ], sig) {
			out[typ] = append(out[typ], sig)
		}
	}
	for k := range out {
		slices.Sort(out[k])
	}
	return out
}

// countLines counts newline-terminated lines.
func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	n := 0
	for sc.Scan() {
		n++
	}
	return n
}

// readParseableEvents decodes the lines of a file that are JSON objects with a
// string event_type, skipping the deliberately malformed ones of parity's
// conc_dup_malformed. It reads at most maxLines lines.
func readParseableEvents(t *testing.T, path string, maxLines int) []event {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	var out []event
	lines := bytes.Split(data, []byte("\n"))
	for _, line := range lines[:min(len(lines), maxLines)] {
		e, err := decodeEvent(line)
		if err != nil {
			continue
		}
		var typ string
		if json.Unmarshal(e.fields["event_type"], &typ) != nil {
			continue
		}
		out = append(out, e)
	}
	return out
}
