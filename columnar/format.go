package columnar

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// UnknownFormatError reports a file whose content matches no format.
type UnknownFormatError struct {
	File string
	// Seen describes what the first bytes hold.
	Seen string
	// Undecided reports a file whose first value did not end within the
	// bytes detection reads (it may be a log: a row says so).
	Undecided bool
}

func (e *UnknownFormatError) Error() string {
	return fmt.Sprintf("%s: unknown log format: %s; steadysweep reads an endpoints events.jsonl (current or pre-April-2026), "+
		"an AIPerf profile_export.jsonl, a GuideLLM benchmarks report (JSON or YAML) or a vLLM `bench serve --save-result --save-detailed` result",
		e.File, e.Seen)
}

// ErrUnknownFormat matches every UnknownFormatError with errors.Is.
var ErrUnknownFormat = errors.New("unknown log format")

// Is reports target == ErrUnknownFormat.
func (e *UnknownFormatError) Is(target error) bool { return target == ErrUnknownFormat }

// DetectFile reads the first bytes of path (gzip and zstd decompressed)
// and returns the format they show. A file whose content shows no format
// is an *UnknownFormatError naming what was seen.
func DetectFile(path string) (contract.Format, error) {
	// A JSONL log's first line decides alone: read a short head first,
	// and the long one only when that line is not whole in it or names no
	// format (a pretty-printed report, YAML, a damaged first line). The
	// line's verdict is Detect's on the head (firstLineFormat), taken as
	// it is rather than decoded again.
	head, err := contract.ReadHead(path, shortSniffSize)
	if err == nil && len(head) == shortSniffSize {
		if f := firstLineFormat(head); f != "" && byteOrderEncoding(head) == "" {
			return f, nil
		}
		head, err = contract.ReadHead(path, contract.SniffSize)
	}
	if err != nil {
		return "", err
	}
	if enc := byteOrderEncoding(head); enc != "" {
		return "", &EncodingError{File: path, Encoding: enc}
	}
	if isParquet(head) {
		return detectParquet(path)
	}
	f, seen := Detect(head)
	if f == "" && len(head) == contract.SniffSize {
		return detectLong(path, head, seen)
	}
	if f == "" {
		return "", &UnknownFormatError{File: path, Seen: seen}
	}
	return f, nil
}

// headBody is head without a UTF-8 byte order mark and leading
// whitespace: where the first value starts.
func headBody(head []byte) []byte {
	return bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
}

// shortSniffSize is the head DetectFile reads first: the first line of
// a JSONL log (an endpoints log's is ~130 bytes, an AIPerf record's 1–2
// kB). One page, as the reader's buffer (contract.ReadHead): a 16 KiB head
// was four fresh pages a warm analyze faulted in for its first line.
const shortSniffSize = 4 << 10

// firstLineFormat is the format head's first line names when it is a
// whole JSON object whose keys name one, else "": Detect's verdict on
// head is then the same, and on any longer head, since the first object's
// keys decide first.
func firstLineFormat(head []byte) contract.Format {
	body := headBody(head)
	line, _, ok := bytes.Cut(body, []byte("\n"))
	if !ok || len(line) == 0 || line[0] != '{' || !json.Valid(line) {
		return ""
	}
	f, _ := classifyJSON(topLevelKeys(line))
	return f
}

// Detect classifies a file by its first bytes (decompressed; a prefix of
// the file is enough). It returns the format, or "" and a description of
// what the bytes hold. Only content decides: the first JSON value's keys
// (and an endpoints event type's spelling), or a YAML document's
// top-level keys.
func Detect(head []byte) (contract.Format, string) {
	body := headBody(head)
	if len(body) == 0 {
		return "", "an empty file"
	}
	if body[0] == '{' {
		// The first value: a whole report, or the first JSONL record.
		keys, evType := topLevelKeys(body)
		if f, seen := classifyJSON(keys, evType); f != "" {
			return f, ""
		} else if len(keys) > 0 && seen != "" {
			// A recognisable non-log (a summary beside the log) says so.
			return "", seen
		}
		// JSONL whose first line is damaged: the next few lines decide.
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, len(body)+1)
		for tries := 0; tries < 32 && sc.Scan(); tries++ {
			if k, et := topLevelKeys(sc.Bytes()); len(k) > 0 {
				if f, _ := classifyJSON(k, et); f != "" {
					return f, ""
				}
			}
		}
		if len(keys) == 0 {
			return "", fmt.Sprintf("first bytes %s (not a JSON object)", quoteHead(body))
		}
		return "", "a JSON object with keys " + keyList(keys)
	}
	if f, seen := detectMore(body); f != "" || seen != "" {
		return f, seen
	}
	if body[0] == '[' {
		return "", "a JSON array, not an object: first bytes " + quoteHead(body)
	}
	if keys := yamlTopLevelKeys(body); len(keys) > 0 {
		if slices.Contains(keys, "benchmarks") {
			return contract.FormatGuideLLM, ""
		}
		return "", "a YAML document with keys " + keyList(keys)
	}
	return "", "first bytes " + quoteHead(body)
}

// classifyJSON picks the format of a JSON object from its top-level keys
// (and its event_type, for the endpoints logs). When it finds none but
// recognises the object, seen says what it is.
func classifyJSON(keys []string, evType string) (f contract.Format, seen string) {
	has := func(k string) bool { return slices.Contains(keys, k) }
	switch {
	case classifyMoreJSON(keys) != "":
		return classifyMoreJSON(keys), ""
	case has("event_type"):
		if has("value") || has("approx_datetime_str") || (evType != "" && !strings.Contains(evType, ".")) {
			return contract.FormatEndpointsLegacy, ""
		}
		return contract.FormatEndpoints, ""
	case has("metadata") && (has("metrics") || has("error")) && !has("benchmarks"):
		return contract.FormatAIPerf, ""
	case has("benchmarks"):
		return contract.FormatGuideLLM, ""
	case has("ttfts") || has("model_id") && (has("num_prompts") || has("backend") || has("endpoint_type")):
		return contract.FormatVLLM, ""
	case has("records") && has("input_config"):
		return "", "an AIPerf summary (profile_export_aiperf.json), not its per-request log: read profile_export.jsonl beside it"
	}
	return "", ""
}

// topLevelKeys returns the keys of the JSON object at the start of b, as
// far as b holds it (a cut object yields the keys before the cut), and
// the value of an "event_type" key when it is a string.
func topLevelKeys(b []byte) (keys []string, evType string) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, ""
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys, evType
		}
		key, ok := t.(string)
		if !ok {
			return keys, evType
		}
		keys = append(keys, key)
		if key == "event_type" {
			if v, err := dec.Token(); err == nil {
				if s, ok := v.(string); ok {
					evType = s
				}
				if d, ok := v.(json.Delim); ok && (d == '[' || d == '{') {
					if skipRest(dec) != nil {
						return keys, evType
					}
				}
				continue
			}
			return keys, evType
		}
		if skipValue(dec) != nil {
			return keys, evType
		}
	}
	return keys, evType
}

// skipValue consumes one JSON value from dec, holding at most one token.
func skipValue(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); ok && (d == '[' || d == '{') {
		return skipRest(dec)
	}
	return nil
}

// skipRest consumes the rest of a container whose opening delimiter was
// just read.
func skipRest(dec *json.Decoder) error {
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '[', '{':
				depth++
			default:
				depth--
			}
		}
	}
	return nil
}

// yamlTopLevelKeys returns the column-0 mapping keys of a YAML document
// prefix ("key:" lines), or nil when b does not look like YAML mapping.
func yamlTopLevelKeys(b []byte) []string {
	var keys []string
	for _, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 || line[0] == '#' || line[0] == ' ' || line[0] == '\t' || line[0] == '-' {
			continue // blank, comment, nested, sequence item or "---"
		}
		colon := bytes.IndexByte(line, ':')
		ok := colon > 0 && (colon+1 == len(line) || line[colon+1] == ' ') &&
			!bytes.ContainsAny(line[:colon], " \t\"'{}[],")
		if !ok {
			if len(keys) == 0 {
				return nil // the first content line is not "key:"
			}
			continue
		}
		keys = append(keys, string(line[:colon]))
	}
	return keys
}

// keyList renders up to 8 keys for a message.
func keyList(keys []string) string {
	var b strings.Builder
	for i, k := range keys {
		if i == 8 {
			fmt.Fprintf(&b, ", … (%d keys)", len(keys))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", k)
	}
	return b.String()
}

// quoteHead quotes the first bytes of b for a message.
func quoteHead(b []byte) string {
	if len(b) > 40 {
		return fmt.Sprintf("%q…", b[:40])
	}
	return fmt.Sprintf("%q", b)
}
