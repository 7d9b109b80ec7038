// Package benchlog writes synthetic event logs for benchmarks. It
// imports nothing of the project, so any package's tests can use it.
package benchlog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

var vocab = strings.Fields("the of and to in is that for it as was with be by on not he this are or his from at which but have an they you were her she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man me even most made after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three")

// ParityShape writes about size bytes of an events log in the shape of
// the parity runs to w and returns the bytes written: 32 samples in
// flight, a prompt of 100–400 words in every ISSUED line, streamed outputs
// of 200–800 words as ["The", rest] in COMPLETE lines, plain ASCII.
func ParityShape(w io.Writer, size int64) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	rng := rand.New(rand.NewPCG(20260901, 1))
	text := func(n int) string {
		var sb strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(vocab[rng.IntN(len(vocab))])
		}
		return sb.String()
	}
	// A pool of texts keeps generation fast; lines still differ by uuid/ts.
	prompts := make([]string, 64)
	outputs := make([]string, 64)
	for i := range prompts {
		prompts[i] = strconv.Quote(text(100 + rng.IntN(300)))
		outputs[i] = `["The",` + strconv.Quote(" "+text(200+rng.IntN(600))) + `]`
	}
	return writeSessions(bw, rng, size, prompts, outputs)
}

// Chunking is how StreamedShape writes an answer's output.
type Chunking int

const (
	// TwoChunks is what the endpoints client writes for a streamed
	// answer without reasoning (spec/event-log.md §1.4, accumulator.py):
	// [first_chunk, "".join(rest)].
	TwoChunks Chunking = iota
	// ChunkPerWord is one string per word: a client that keeps every
	// chunk (["The", " quick", " brown", …]).
	ChunkPerWord
)

// answerWords are the extra words of StreamedShape's answers: non-ASCII
// (written raw, as msgspec does) and punctuation.
var answerWords = []string{"café", "naïve", "→", "—", "日本語", "über", "“quoted”", "x²", "e.g.,", "(see", "below):"}

// StreamedShape writes about size bytes of an events log in the layout
// the endpoints client writes for streamed answers, and returns the bytes
// written: 32 samples in flight; a prompt of 100–400 words in every
// ISSUED line; answers of 100–500 words of markdown-like text — a line
// break (escaped \n) every sentence or so, blank lines between
// paragraphs, list items, a quoted word (\") now and then, non-ASCII
// words — chunked as chunking says, the first chunk one word.
func StreamedShape(w io.Writer, size int64, chunking Chunking) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	rng := rand.New(rand.NewPCG(20261202, uint64(chunking)))
	word := func() string {
		if rng.IntN(12) == 0 {
			return answerWords[rng.IntN(len(answerWords))]
		}
		return vocab[rng.IntN(len(vocab))]
	}
	// text returns n words as they would be streamed: each word after the
	// first carries its leading separator (space, newline, blank line).
	text := func(n int) []string {
		out := make([]string, 0, n)
		for i := 0; i < n; i++ {
			sep := " "
			switch r := rng.IntN(40); {
			case i == 0:
				sep = ""
			case r < 2:
				sep = `\n\n`
			case r < 5:
				sep = `.\n`
			case r < 6:
				sep = `\n- `
			}
			w := word()
			if rng.IntN(60) == 0 {
				w = `\"` + w + `\"`
			}
			out = append(out, sep+w)
		}
		return out
	}
	join := func(parts []string) string { return strings.Join(parts, "") }
	prompts := make([]string, 64)
	outputs := make([]string, 64) // the JSON array of chunks, brackets included
	for i := range prompts {
		prompts[i] = `"` + join(text(100+rng.IntN(301))) + `"`
		words := text(100 + rng.IntN(401))
		var sb strings.Builder
		sb.WriteString(`["`)
		sb.WriteString(words[0])
		if chunking == TwoChunks {
			sb.WriteString(`","`)
			sb.WriteString(join(words[1:]))
		} else {
			for _, w := range words[1:] {
				sb.WriteString(`","`)
				sb.WriteString(w)
			}
		}
		sb.WriteString(`"]`)
		outputs[i] = sb.String()
	}
	return writeSessions(bw, rng, size, prompts, outputs)
}

// writeSessions writes to bw, until about size bytes are written, an
// events log of one session with 32 samples in flight: each ISSUED line
// carries a prompt of prompts (a JSON string, quotes included) and each
// COMPLETE line an output of outputs (the JSON of the chunks), picked by
// rng, which also draws the uuids and the gaps between events. It
// returns the bytes written.
func writeSessions(bw *bufio.Writer, rng *rand.Rand, size int64, prompts, outputs []string) (int64, error) {
	var written int64
	put := func(s string) { n, _ := bw.WriteString(s); written += int64(n) }
	ts := int64(81234567890123)
	put(fmt.Sprintf(`{"event_type":"session.started","timestamp_ns":%d,"sample_uuid":"","conversation_id":"","turn":null,"data":null}`+"\n", ts))
	put(fmt.Sprintf(`{"event_type":"session.start_performance_tracking","timestamp_ns":%d,"sample_uuid":"","conversation_id":"","turn":null,"data":null}`+"\n", ts+1))
	const C = 32
	var inflight [][2]uint64
	for written < size {
		if len(inflight) < C {
			u := [2]uint64{rng.Uint64(), rng.Uint64()}
			inflight = append(inflight, u)
			ts += int64(rng.IntN(1e6))
			put(fmt.Sprintf(`{"event_type":"sample.issued","timestamp_ns":%d,"sample_uuid":"%016x%016x","conversation_id":"","turn":null,"data":["PromptData",%s,null,null,null,null,null,null]}`+"\n",
				ts, u[0], u[1], prompts[rng.IntN(len(prompts))]))
			ts += int64(rng.IntN(1e6))
			put(fmt.Sprintf(`{"event_type":"sample.recv_first","timestamp_ns":%d,"sample_uuid":"%016x%016x","conversation_id":"","turn":null,"data":null}`+"\n", ts, u[0], u[1]))
			continue
		}
		k := rng.IntN(len(inflight))
		u := inflight[k]
		inflight[k] = inflight[len(inflight)-1]
		inflight = inflight[:len(inflight)-1]
		ts += int64(rng.IntN(1e7))
		put(fmt.Sprintf(`{"event_type":"sample.complete","timestamp_ns":%d,"sample_uuid":"%016x%016x","conversation_id":"","turn":null,"data":["TextModelOutput",%s,null,null],"finish_reason":"stop","worker_id":3}`+"\n",
			ts, u[0], u[1], outputs[rng.IntN(len(outputs))]))
	}
	put(fmt.Sprintf(`{"event_type":"session.stop_performance_tracking","timestamp_ns":%d,"sample_uuid":"","conversation_id":"","turn":null,"data":null}`+"\n", ts+1))
	put(fmt.Sprintf(`{"event_type":"session.ended","timestamp_ns":%d,"sample_uuid":"","conversation_id":"","turn":null,"data":null}`+"\n", ts+2))
	return written, bw.Flush()
}

// SampleIndex writes a sample_idx_map.json of n entries to w: distinct
// uuids of 32 lowercase hex digits, indices 0..n-1 (about 45 bytes an
// entry).
func SampleIndex(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(`{"performance": {`)
	for i := 0; i < n; i++ {
		if i > 0 {
			bw.WriteString(", ")
		}
		fmt.Fprintf(bw, `"%016x%016x": %d`, uint64(i)*0x9E3779B97F4A7C15, uint64(i), i)
	}
	bw.WriteString("}}")
	return bw.Flush()
}

// SplitLines is the floor the decoders are measured against: it splits
// the file at path into lines with bufio.Scanner and does nothing else,
// returning the bytes of the lines.
func SplitLines(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var n int64
	for sc.Scan() {
		n += int64(len(sc.Bytes()))
	}
	return n, errors.Join(sc.Err(), f.Close())
}
