package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/steadysweep/steadysweep/internal/atomicfile"
)

// Generate simulates spec and writes one complete run directory into dir
// (created if missing): events.jsonl, config.yaml, run_meta.json,
// sample_idx_map.json (absent for a truncated run, as upstream leaves none when
// killed) and truth.json. It returns the truth it wrote.
func Generate(dir string, spec Spec) (Truth, error) {
	spec = spec.withDefaults()
	ag, spec, err := prepareAgentic(spec)
	if err != nil {
		return Truth{}, err
	}
	if err := spec.validate(); err != nil {
		return Truth{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Truth{}, fmt.Errorf("synth: create run dir: %w", err)
	}
	eventsPath := filepath.Join(dir, "events.jsonl")
	f, err := atomicfile.Create(eventsPath)
	if err != nil {
		return Truth{}, fmt.Errorf("synth: create events.jsonl: %w", err)
	}
	defer f.Abort() // a no-op once committed
	lw := newLineWriter(f)
	s := newSim(spec, lw)
	s.agentic = ag
	s.start()
	s.run()
	if err := lw.close(); err != nil {
		return Truth{}, fmt.Errorf("synth: write %s: %w", eventsPath, err)
	}
	if err := f.Commit(); err != nil {
		return Truth{}, fmt.Errorf("synth: write %s: %w", eventsPath, err)
	}
	name := runName(spec)
	truth := s.truth(name)
	files := []struct {
		name string
		data []byte
	}{
		{"config.yaml", []byte(configYAML(s.spec, name, s.spec.QPS, s.planned))},
		{"run_meta.json", []byte("{\n  \"dataset_size\": " + strconv.Itoa(spec.DatasetSize) + "\n}")},
	}
	if !lw.cut {
		files = append(files, struct {
			name string
			data []byte
		}{"sample_idx_map.json", s.sampleIdxMap()})
	}
	tj, err := marshalTruth(truth)
	if err != nil {
		return Truth{}, err
	}
	files = append(files, struct {
		name string
		data []byte
	}{"truth.json", tj})
	for _, fl := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, fl.name), fl.data); err != nil {
			return Truth{}, fmt.Errorf("synth: write %s: %w", fl.name, err)
		}
	}
	return truth, nil
}

func runName(spec Spec) string {
	if spec.Preset != "" {
		return spec.Preset
	}
	return "custom"
}

func marshalTruth(t any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(t); err != nil {
		return nil, fmt.Errorf("synth: encode truth.json: %w", err)
	}
	return buf.Bytes(), nil
}

// sampleIdxMap renders {"performance": {uuid: dataset_index, ...}} with indent 2
// and no trailing newline, keys in issue order (every perf-phase issue, tracked
// or not), like upstream's msgspec dump.
func (s *sim) sampleIdxMap() []byte {
	b := []byte("{\n  \"performance\": {")
	first := true
	for i := range s.reqs {
		r := &s.reqs[i]
		if r.issueNs == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, "\n    \""...)
		b = append(b, r.uuid[:]...)
		b = append(b, "\": "...)
		b = strconv.AppendInt(b, int64(r.dataset), 10)
	}
	if first {
		return append(b, "}\n}"...)
	}
	return append(b, "\n  }\n}"...)
}

// truth assembles truth.json from the finished simulation.
func (s *sim) truth(name string) Truth {
	sp := s.spec
	tracked := s.tracked()
	n := sp.DatasetSize
	t := Truth{
		Name:               name,
		Set:                "synth",
		Seed:               sp.Seed,
		Mode:               sp.Mode,
		LoadPattern:        loadPattern(sp.Mode),
		Shape:              "custom",
		DatasetSize:        n,
		SuperpassSize:      n,
		NSuperPassesInFile: (len(tracked) + n - 1) / n,
		Load:               Load{C: sp.Concurrency},
		ServiceRateTokS:    sp.OutputTokS,
		TokenCounter:       "whitespace_words",
	}
	if p, ok := presetByName(sp.Preset); ok {
		t.Shape, t.Description = p.shape, p.description
	}
	switch sp.Mode {
	case ModePoisson:
		t.Load.QPS = sp.QPS
	case ModeOffline:
		t.Load.MaxBatch = sp.MaxBatch
	}
	t.Planted = s.planted(tracked)
	t.SimulatedPerSP = s.superPassStats(tracked)
	t.ExpectedVerdict = s.verdict(tracked, t.Planted)
	t.Counts = s.counts(tracked)
	if s.lw.cut {
		t.FileNotes = FileNotes{Truncated: true, TruncatedAtLine: s.lw.lines, LastLineCharsKept: s.lw.cutRunes, NoSampleIdxMap: true}
	}
	if s.agentic != nil {
		t.Agentic = s.agentic.truth()
	}
	return t
}

func loadPattern(mode string) string {
	switch mode {
	case ModeOffline:
		return "max_throughput"
	case ModeAgentic:
		return "agentic_inference"
	}
	return mode
}

// counts tallies the written file.
func (s *sim) counts(tracked []*request) Counts {
	c := Counts{
		PerfIssued:          s.issued,
		TrackedIssuedInFile: len(tracked),
		DuplicateIssued:     s.duplicateIssued,
		DuplicateRecvFirst:  s.duplicateRecvFirst,
		Lines:               s.lw.lines,
	}
	for i := range s.reqs {
		r := &s.reqs[i]
		if r.issueNs == 0 {
			continue
		}
		if r.track < 0 {
			c.UntrackedPerfIssued++
			continue
		}
		if r.completeNs == 0 {
			c.TrackedWithoutComplete++
			continue
		}
		switch r.fail {
		case failHTTP:
			c.FailedTracked++
			c.FailedHTTP++
		case failMidstream:
			c.FailedTracked++
			c.FailedMidstream++
		case failSkipped:
			c.FailedTracked++
		default:
			if r.tokens == 1 || r.noText {
				c.ZeroTokenAfterFirst++
			}
			if r.length {
				c.LengthCapped++
			}
		}
	}
	if s.agentic != nil {
		c.ToolCallOutputs = s.agentic.toolCallOutputs
		c.AgenticTimeouts = s.agentic.timeouts
		c.AgenticSkippedTurns = s.agentic.skipped
	}
	return c
}
