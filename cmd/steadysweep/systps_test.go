package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/corpora/sharedtest"
)

// System TPS is every output token of the successful completions over the
// span (design §5.8; issue 28), the same definition for every reader:
// an endpoints log counts the first chunk with the tokens after it (TPOT
// keeps only the latter), AIPerf and GuideLLM their recorded whole-output
// counts. Each count and span is recomputed here from the raw file.
func TestSystemTPSAllOutputTokens(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

	// Endpoints: parity conc_clean_ramp, words tokenizer. Tracked samples
	// in issue order (first ISSUED of each uuid while tracking is on);
	// super-pass k holds ranks [k·S, (k+1)·S).
	dir := filepath.Join(sharedtest.Dir(t, "parity"), "parity", "runs", "conc_clean_ramp")
	raw := readEndpointsTokens(t, filepath.Join(dir, "events.jsonl"))
	a := analyzeDefaults(t, dir)
	S := int(get(a.json, "superpass_size").(float64))
	lo := int(get(a.json, "submission.window.super_pass_start").(float64))
	hi := int(get(a.json, "submission.window.super_pass_end").(float64)) + 1
	if lo >= hi || hi*S > len(raw) {
		t.Fatalf("window [%d, %d) of %d-sample super-passes over %d tracked samples", lo, hi, S, len(raw))
	}
	var all, afterFirst int
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for _, s := range raw[lo*S : hi*S] {
		all += s.all
		afterFirst += s.afterFirst
		first, last = min(first, s.issue), max(last, s.issue)
	}
	span := float64(last-first) / 1e9
	if got := get(a.json, "steady.out_tokens"); got != float64(all) || all == afterFirst {
		t.Errorf("endpoints window: out_tokens %v, raw file %d (first chunk included; %d after it)", got, all, afterFirst)
	}
	if d, _ := number(get(a.json, "steady.duration_s")); !near(d, span) {
		t.Errorf("endpoints window: duration %v s, raw issue span %v s", d, span)
	}
	for _, key := range []string{"steady.tps_system", "throughput.system.value"} {
		if v, _ := number(get(a.json, key)); !near(v, float64(all)/span) {
			t.Errorf("endpoints window: %s %v, raw file %d tokens / %v s = %v", key, v, all, span, float64(all)/span)
		}
	}
	var wholeAll int
	for _, s := range raw {
		wholeAll += s.all
	}
	if got := get(a.json, "total.out_tokens"); got != float64(wholeAll) {
		t.Errorf("endpoints run: total out_tokens %v, raw file %d", got, wholeAll)
	}

	// GuideLLM: every successful request's output_tokens over first start
	// → last end.
	real := realDataDir(t)
	path := filepath.Join(real, "guidellm-gptoss20b-sync30", "openai_gpt-oss-20b_tp4_quant-none_benchmarks.json")
	var gl struct {
		Benchmarks []struct {
			Requests struct {
				Successful []struct {
					Start  float64 `json:"request_start_time"`
					End    float64 `json:"request_end_time"`
					Tokens float64 `json:"output_tokens"`
				} `json:"successful"`
			} `json:"requests"`
		} `json:"benchmarks"`
	}
	readJSON(t, path, &gl)
	var glTok float64
	glFirst, glLast := math.Inf(1), math.Inf(-1)
	for _, r := range gl.Benchmarks[0].Requests.Successful {
		glTok += r.Tokens
		glFirst, glLast = math.Min(glFirst, r.Start), math.Max(glLast, r.End)
	}
	g := analyzeDefaults(t, path)
	checkWholeRunTPS(t, "guidellm", g.json, glTok, glLast-glFirst, 1e-6)

	// AIPerf: output_sequence_length of the records without error, over
	// the first request start → the last response.
	path = filepath.Join(real, "aiperf-gptoss20b-burst100", "profile_export.jsonl")
	var apTok float64
	apFirst, apLast := int64(math.MaxInt64), int64(math.MinInt64)
	eachJSONLine(t, path, func(rec struct {
		Error    any `json:"error"`
		Metadata struct {
			Start int64 `json:"timestamp_ns"`
		} `json:"metadata"`
		Metrics struct {
			OSL  struct{ Value float64 } `json:"output_sequence_length"`
			Last struct{ Value int64 }   `json:"max_response_timestamp"`
		} `json:"metrics"`
	}) {
		apFirst = min(apFirst, rec.Metadata.Start)
		if rec.Error == nil {
			apTok += rec.Metrics.OSL.Value
		}
		if rec.Metrics.Last.Value > 0 {
			apLast = max(apLast, rec.Metrics.Last.Value)
		}
	})
	ap := analyzeDefaults(t, path)
	checkWholeRunTPS(t, "aiperf", ap.json, apTok, float64(apLast-apFirst)/1e9, 1e-6)
}

// checkWholeRunTPS checks the whole-run block of an analysis against the
// raw file's output tokens and span (relative tolerance tol on the span,
// whose clock the reader converts).
func checkWholeRunTPS(t *testing.T, name string, js map[string]any, tokens, span, tol float64) {
	t.Helper()
	d, _ := number(get(js, "total.duration_s"))
	tps, _ := number(get(js, "total.tps_system"))
	if get(js, "total.out_tokens") != tokens || math.Abs(d-span) > tol*span ||
		math.Abs(tps-tokens/span) > tol*tokens/span {
		t.Errorf("%s: %v tokens over %v s = %v tok/s; raw file %v tokens over %v s = %v tok/s", name,
			get(js, "total.out_tokens"), d, tps, tokens, span, tokens/span)
	}
}

// rawSample is a tracked sample of an endpoints log: its first ISSUED
// time and, for a successful completion, its output's words (every chunk
// of the output and reasoning) and the words after the first chunk.
type rawSample struct {
	issue           int64
	all, afterFirst int
}

// readEndpointsTokens reads an endpoints events.jsonl (event-log.md): the
// tracked samples in issue order with their output words, counted by
// whitespace like the words tokenizer.
func readEndpointsTokens(t *testing.T, path string) []rawSample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []rawSample
	index := map[string]int{}
	tracking := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var ev struct {
			Type string            `json:"event_type"`
			TS   int64             `json:"timestamp_ns"`
			UUID string            `json:"sample_uuid"`
			Data []json.RawMessage `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue // a malformed line is no sample
		}
		switch ev.Type {
		case "session.start_performance_tracking":
			tracking = true
		case "session.stop_performance_tracking":
			tracking = false
		case "sample.issued":
			if _, seen := index[ev.UUID]; !seen && tracking {
				index[ev.UUID] = len(out)
				out = append(out, rawSample{issue: ev.TS})
			}
		case "sample.complete":
			i, ok := index[ev.UUID]
			if !ok || len(ev.Data) < 2 {
				continue // untracked, or null data: a failure
			}
			var chunks []string
			for _, part := range ev.Data[1:min(3, len(ev.Data))] { // output, reasoning
				var s string
				var list []string
				if json.Unmarshal(part, &list) == nil {
					chunks = append(chunks, list...)
				} else if json.Unmarshal(part, &s) == nil && s != "" {
					chunks = append(chunks, s)
				}
			}
			for k, c := range chunks {
				n := len(strings.Fields(c))
				out[i].all += n
				if k > 0 {
					out[i].afterFirst += n
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
