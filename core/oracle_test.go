package core_test

// A small, independent decoder of an events.jsonl file into core.Samples,
// written from detector.md §3 for the parity test. It follows the
// reference's rules literally (Python truthiness, the first-chunk rule, the
// NATL full-output text) and is deliberately simple rather than fast, so
// it can serve as an oracle next to the production decoder (columnar).

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/steadysweep/steadysweep/core"
)

func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

func pyWords(s string) int { return len(strings.FieldsFunc(s, pyIsSpace)) }

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// textAfterFirstChunk is detector.md §3.10.
func textAfterFirstChunk(data any) string {
	arr, ok := data.([]any)
	if !ok || len(arr) == 0 {
		return ""
	}
	var output, reasoning any = "", nil
	if len(arr) > 1 {
		output = arr[1]
	}
	if len(arr) > 2 {
		reasoning = arr[2]
	}
	var parts []any
	if truthy(reasoning) {
		if ra, ok := reasoning.([]any); ok && len(ra) > 1 {
			parts = append(parts, ra[1:]...)
		}
	}
	if truthy(output) {
		switch o := output.(type) {
		case string:
			_, rIsList := reasoning.([]any)
			if len(parts) > 0 || (truthy(reasoning) && rIsList) {
				parts = append(parts, o)
			}
		case []any:
			if len(parts) > 0 || truthy(reasoning) {
				parts = append(parts, o...)
			} else if len(o) > 1 {
				parts = append(parts, o[1:]...)
			}
		}
	}
	var b strings.Builder
	for _, p := range parts {
		s, _ := p.(string)
		b.WriteString(s)
	}
	return b.String()
}

// pyDumps writes v as Python's json.dumps with default separators (key
// order is not preserved; word counts do not depend on it).
func pyDumps(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		s := x.String()
		if strings.ContainsAny(s, ".eE") {
			f, _ := x.Float64()
			s = strconv.FormatFloat(f, 'g', -1, 64) // digits only matter for spaces: none
		}
		b.WriteString(s)
	case string:
		q, _ := json.Marshal(x)
		b.Write(q)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			pyDumps(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			pyDumps(b, k)
			b.WriteString(": ")
			pyDumps(b, x[k])
		}
		b.WriteByte('}')
	}
}

// fullOutputText is detector.md §13's NATL text.
func fullOutputText(data any) string {
	arr, ok := data.([]any)
	if !ok {
		return ""
	}
	var parts []any
	var reasoning, output, tools any = nil, "", nil
	if len(arr) > 2 {
		reasoning = arr[2]
	}
	if len(arr) > 1 {
		output = arr[1]
	}
	if len(arr) > 3 {
		tools = arr[3]
	}
	for _, v := range []any{reasoning, output} {
		if truthy(v) {
			if l, ok := v.([]any); ok {
				parts = append(parts, l...)
			} else {
				parts = append(parts, v)
			}
		}
	}
	var b strings.Builder
	for _, p := range parts {
		if s, ok := p.(string); ok {
			b.WriteString(s)
		} else {
			pyDumps(&b, p)
		}
	}
	if truthy(tools) {
		pyDumps(&b, tools)
	}
	return b.String()
}

func asInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// oracleDecode decodes a run directory's events.jsonl into Samples and
// reads run_meta.json / config.yaml's load pattern (a line scan, enough
// for the parity runs).
func oracleDecode(dir string) (*core.Samples, core.RunInfo, error) {
	var info core.RunInfo
	if meta, err := os.ReadFile(filepath.Join(dir, "run_meta.json")); err == nil {
		var m map[string]any
		d := json.NewDecoder(bytes.NewReader(meta))
		d.UseNumber()
		if d.Decode(&m) == nil {
			if n, ok := asInt(m["dataset_size"]); ok {
				info.DatasetSize = int(n)
			}
		}
	}
	if cfg, err := os.ReadFile(filepath.Join(dir, "config.yaml")); err == nil {
		inLP := false
		for line := range strings.SplitSeq(string(cfg), "\n") {
			t := strings.TrimSpace(line)
			if t == "load_pattern:" {
				inLP = true
				continue
			}
			if inLP && strings.HasPrefix(t, "type:") {
				info.LoadPattern = strings.TrimSpace(strings.TrimPrefix(t, "type:"))
				break
			}
		}
	}
	f, err := os.Open(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		return nil, info, err
	}
	defer f.Close()

	s := &core.Samples{}
	pending := map[string]int{}
	current := map[string]int64{} // the issue time current for a pending sample
	tracking := false
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	seq := int64(-1)
	for sc.Scan() {
		seq++
		line := strings.TrimFunc(sc.Text(), pyIsSpace)
		if line == "" {
			continue
		}
		d := json.NewDecoder(strings.NewReader(line))
		d.UseNumber()
		var rec map[string]any
		if d.Decode(&rec) != nil || d.More() {
			continue
		}
		et, _ := rec["event_type"].(string)
		ts, hasTS := asInt(rec["timestamp_ns"])
		uuid, _ := rec["sample_uuid"].(string)
		switch et {
		case "session.start_performance_tracking":
			tracking = true
		case "session.stop_performance_tracking":
			tracking = false
		case "sample.issued":
			if !tracking || uuid == "" || !hasTS {
				continue
			}
			if k, ok := pending[uuid]; ok {
				current[uuid] = ts // a retry refreshes the issue time
				s.LastIssueNs[k] = max(s.LastIssueNs[k], ts)
				s.LastEventNs[k] = max(s.LastEventNs[k], ts)
				s.Retries[k]++
				continue
			}
			k := s.Len()
			pending[uuid] = k
			current[uuid] = ts
			conv, _ := rec["conversation_id"].(string)
			turn := int32(-1)
			if t, ok := asInt(rec["turn"]); ok {
				turn = int32(t)
			}
			s.IssueNs = append(s.IssueNs, ts)
			s.LastIssueNs = append(s.LastIssueNs, ts)
			s.LastEventNs = append(s.LastEventNs, ts)
			s.HasFirstToken = append(s.HasFirstToken, false)
			s.FirstTokenNs = append(s.FirstTokenNs, 0)
			s.TTFTNs = append(s.TTFTNs, 0)
			s.WarmTTFT = append(s.WarmTTFT, false)
			s.FirstTokenSeq = append(s.FirstTokenSeq, -1)
			s.HasComplete = append(s.HasComplete, false)
			s.CompleteNs = append(s.CompleteNs, 0)
			s.LatencyNs = append(s.LatencyNs, 0)
			s.CompleteSeq = append(s.CompleteSeq, -1)
			s.OutTokens = append(s.OutTokens, -1)
			s.FullTokens = append(s.FullTokens, -1)
			s.Failed = append(s.Failed, false)
			s.Retries = append(s.Retries, 0)
			s.ConversationID = append(s.ConversationID, conv)
			s.Turn = append(s.Turn, turn)
		case "sample.recv_first":
			k, ok := pending[uuid]
			if !ok || !hasTS {
				continue
			}
			s.LastEventNs[k] = max(s.LastEventNs[k], ts)
			if s.HasFirstToken[k] {
				continue
			}
			s.HasFirstToken[k] = true
			s.FirstTokenNs[k] = ts
			s.TTFTNs[k] = ts - current[uuid]
			s.FirstTokenSeq[k] = seq
			warm := true
			if tv, present := rec["turn"]; present && tv != nil {
				n, _ := tv.(json.Number)
				f, _ := n.Float64()
				if b, isBool := tv.(bool); isBool {
					f = map[bool]float64{true: 1, false: 0}[b]
				}
				warm = f > 1 && !math.IsNaN(f)
			}
			s.WarmTTFT[k] = warm
		case "sample.complete":
			k, ok := pending[uuid]
			issue := current[uuid]
			delete(pending, uuid)
			delete(current, uuid)
			if !ok || !hasTS {
				continue
			}
			s.LastEventNs[k] = max(s.LastEventNs[k], ts)
			s.HasComplete[k] = true
			s.CompleteNs[k] = ts
			s.LatencyNs[k] = ts - issue
			s.CompleteSeq[k] = seq
			data := rec["data"]
			s.Failed[k] = data == nil
			if full := fullOutputText(data); full != "" {
				s.FullTokens[k] = int64(pyWords(full))
			}
			if s.HasFirstToken[k] {
				if txt := textAfterFirstChunk(data); txt != "" {
					s.OutTokens[k] = int64(pyWords(txt))
				}
			}
		}
	}
	return s, info, sc.Err()
}
