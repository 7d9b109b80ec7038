package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/bench/benchlog"
	"github.com/steadysweep/steadysweep/columnar"
)

// streamedSection measures issue 32's targets on the layout the endpoints
// client writes for streamed answers (benchlog.StreamedShape): decode with
// word counts of the two-chunk and the chunk-per-word variants beside the
// bufio floor, and analyze of the 185 MB two-chunk run against the
// reference as a user runs it — with the column cache on: cold (a new
// cache each time, which the run fills) and warm (a hit) — interleaved
// with the reference rep by rep so that the machine's drift hits all three.
func streamedSection(e *env) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "## 7. The streamed layout (issue 32)\n\n")
	size := int64(185e6)
	if e.quick {
		size /= 10
	}
	type shape struct {
		name     string
		chunking benchlog.Chunking
		dir      string
		size     int64
	}
	shapes := []*shape{{name: "two chunks `[first, rest]`", chunking: benchlog.TwoChunks}, {name: "a chunk per word", chunking: benchlog.ChunkPerWord}}
	for i, s := range shapes {
		s.dir = filepath.Join(e.work, fmt.Sprintf("streamed-%d", i))
		e.logf("streamed: generating %s (%d MB)", s.name, size/1e6)
		var err error
		if s.size, err = bench.GenerateStreamedRun(s.dir, s.chunking, size); err != nil {
			return "", err
		}
	}
	fmt.Fprintf(&b, "`benchlog.StreamedShape`: 32 samples in flight, prompts of 100–400 words, answers of 100–500 words of markdown-like text "+
		"(escaped line breaks every sentence or so, blank lines, list items, quoted words, non-ASCII words), as the endpoints client writes them "+
		"(`[first_chunk, rest_joined]`, spec/event-log.md §1.4) and as one string per word; the sidecars of `bench.AnalyzeSpec()` (dataset 1000).\n\n")

	fmt.Fprintf(&b, "### Decode, word counts included\n\n`columnar.DecodeReader` with `tokenizer.Words`, one worker, page cache warm, against `bufio.Scanner` "+
		"splitting the same file; MB/CPU-s is bytes over the process's CPU time. Median of %d.\n\n", e.reps)
	fmt.Fprintf(&b, "| log | size | decode MB/CPU-s | decode MB/s | bufio floor MB/CPU-s |\n|---|---:|---:|---:|---:|\n")
	// Beside them the parity shape of section 6 (["The", rest], plain
	// ASCII, no escapes), measured here too so that the three compare
	// within one run.
	parity := &shape{name: "parity shape (`benchlog.ParityShape`)", dir: filepath.Join(e.work, "streamed-parity")}
	if err := os.MkdirAll(parity.dir, 0o755); err != nil {
		return "", err
	}
	pf, err := os.Create(filepath.Join(parity.dir, "events.jsonl"))
	if err != nil {
		return "", err
	}
	parity.size, err = benchlog.ParityShape(pf, size)
	if err := errorsJoin(err, pf.Close()); err != nil {
		return "", err
	}
	for _, s := range append(shapes[:len(shapes):len(shapes)], parity) {
		path := filepath.Join(s.dir, "events.jsonl")
		if err := warmFile(path); err != nil {
			return "", err
		}
		e.logf("streamed: decode %s ×%d", s.name, e.reps)
		var dec, fl []bench.Sample
		for range e.reps { // interleaved with the floor
			d, err := repeatGC(1, func() error { _, err := decodeOnce(path, 1, true); return err })
			if err != nil {
				return "", err
			}
			f, err := repeatGC(1, func() error { _, err := lineSplit(path); return err })
			if err != nil {
				return "", err
			}
			dec, fl = append(dec, d...), append(fl, f...)
		}
		m, mf := measured{size: s.size, samples: dec}, measured{size: s.size, samples: fl}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", s.name, fmtMB(s.size), fmtRange(m.mbPerCPU(), "%.0f"), fmtRange(m.mbps(), "%.0f"), fmtRange(mf.mbPerCPU(), "%.0f"))
	}
	decoded = columnar.Decoded{}
	b.WriteString("\n")

	// End to end, interleaved: ours cold (new cache), ours warm, the reference.
	out := filepath.Join(e.work, "streamed-out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", err
	}
	two := shapes[0]
	ourJSON, refJSON := filepath.Join(out, "ours.json"), filepath.Join(out, "ref.json")
	coldCache, warmCache := filepath.Join(out, "cold-cache"), filepath.Join(out, "warm-cache")
	manyJSON := filepath.Join(out, "ours-many.json") // not ourJSON: that one is compared with the reference's
	ours := func(dir, cache string) *exec.Cmd {
		json := ourJSON
		if dir != two.dir {
			json = manyJSON
		}
		return exec.CommandContext(e.ctx, e.bin, "analyze", dir, "--tokenizer", "words", "--compat", "reference", "--cache-dir", cache, "--json", json)
	}
	if _, err := bench.RunChild(ours(two.dir, warmCache)); err != nil { // fills the warm cache
		return "", err
	}
	refPath := os.Getenv("STEADYSWEEP_REFERENCE")
	py, pyInfo := pythonCmd()
	withRef := refPath != "" && py != ""
	var cold, warm, ref, manyCold []bench.Child
	for i := range e.reps {
		e.logf("streamed: analyze cold, warm%s (%d/%d)", map[bool]string{true: ", reference"}[withRef], i+1, e.reps)
		if err := os.RemoveAll(coldCache); err != nil {
			return "", err
		}
		c, err := bench.RunChild(ours(two.dir, coldCache))
		if err != nil {
			return "", err
		}
		w, err := bench.RunChild(ours(two.dir, warmCache))
		if err != nil {
			return "", err
		}
		cold, warm = append(cold, c), append(warm, w)
		if withRef {
			r, err := bench.RunChild(referenceCmd(e, py, refPath, two.dir, refJSON))
			if err != nil {
				return "", err
			}
			ref = append(ref, r)
		}
	}
	if err := os.RemoveAll(coldCache); err != nil {
		return "", err
	}
	mc, err := bench.RunChild(ours(shapes[1].dir, coldCache))
	if err != nil {
		return "", err
	}
	manyCold = append(manyCold, mc)

	fmt.Fprintf(&b, "### End to end\n\n```sh\nsteadysweep analyze RUN --tokenizer words --compat reference --cache-dir CACHE --json ours.json   "+
		"# cold: CACHE new each time; warm: CACHE filled\nSTEADYSWEEP_REFERENCE=... python3 bench/scripts/reference_shim.py RUN --json ref.json\n```\n\n"+
		"Fresh processes, interleaved (cold, warm, reference, then again); peak RSS from %s.\n\n", bench.RSSMethod())
	fmt.Fprintf(&b, "| command | reps | wall | CPU | peak RSS |\n|---|---:|---:|---:|---:|\n")
	row := func(name string, cs []bench.Child) {
		if len(cs) > 0 {
			fmt.Fprintf(&b, "| %s | %d | %s s | %s s | %s |\n", name, len(cs), fmtRange(walls(cs), "%.3f"), fmtRange(cpus(cs), "%.3f"), fmtBytes(bench.Median(rsss(cs))))
		}
	}
	row(fmt.Sprintf("analyze %s two-chunk, cold (fills a new cache)", fmtMB(two.size)), cold)
	row(fmt.Sprintf("analyze %s two-chunk, warm (cache hit)", fmtMB(two.size)), warm)
	row(fmt.Sprintf("analyze %s chunk-per-word, cold", fmtMB(shapes[1].size)), manyCold)
	row(fmt.Sprintf("reference %s two-chunk (Python %s)", fmtMB(two.size), pyInfo), ref)
	b.WriteString("\n")
	if !withRef {
		fmt.Fprintf(&b, "The reference was not measured (set STEADYSWEEP_REFERENCE).\n\n")
		return b.String(), nil
	}
	if same, desc, err := sameSteadyState(ourJSON, refJSON); err == nil {
		fmt.Fprintf(&b, "Outputs: `--compat reference` and the reference %s (%s).\n\n", map[bool]string{true: "agree", false: "**disagree**"}[same], desc)
	}
	rw := bench.Median(walls(ref))
	cw, ww := rw/bench.Median(walls(cold)), rw/bench.Median(walls(warm))
	rss := bench.Median(rsss(ref)) / max(bench.Median(rsss(cold)), bench.Median(rsss(warm)))
	e.targets = append(e.targets,
		target{"streamed two-chunk: cold analyze vs reference", "≥ 20× wall (2 cores)", fmt.Sprintf("%.3f s vs %.2f s", bench.Median(walls(cold)), rw), fmt.Sprintf("%.1f×", cw), verdict(cw/20, 1, "")},
		target{"streamed two-chunk: warm analyze vs reference", "≥ 100× wall", fmt.Sprintf("%.3f s vs %.2f s", bench.Median(walls(warm)), rw), fmt.Sprintf("%.0f×", ww), verdict(ww/100, 1, "")},
		target{"streamed two-chunk: peak RSS, cold and warm", "≤ reference's", fmt.Sprintf("%s / %s vs %s", fmtBytes(bench.Median(rsss(cold))), fmtBytes(bench.Median(rsss(warm))), fmtBytes(bench.Median(rsss(ref)))),
			fmt.Sprintf("%.2f×", 1/rss), verdict(rss, 1, "")})
	return b.String(), nil
}
