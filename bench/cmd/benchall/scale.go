package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/steadysweep/steadysweep/bench"
	"github.com/steadysweep/steadysweep/columnar"
	"github.com/steadysweep/steadysweep/columnar/tokenizer"
)

// sizeRow is one log size of the scale table.
type sizeRow struct {
	mb                int64
	size              int64
	samples           int
	nsp               int
	oursReps, refReps int
	reused            bool // the big run of sections 1 and 3
	genS              float64
	dec1, decN        []bench.Sample
	ours, ref         []bench.Child
}

// scaleReps is the number of repetitions at a log size: fewer for the big
// sizes to keep `make bench` under 10 minutes.
func scaleReps(e *env, mb int64) (ours, ref int) {
	switch {
	case e.quick:
		return 2, 1
	case mb <= 50:
		return e.reps, 3
	case mb <= 100:
		return e.reps, 1
	case mb <= 200:
		return 3, 1
	case mb <= 500:
		return 2, 0
	default:
		return 1, 1
	}
}

func nSuperPasses(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	var j struct {
		N int `json:"n_super_passes"`
	}
	if json.Unmarshal(data, &j) != nil {
		return 0
	}
	return j.N
}

func scaleSection(e *env) (string, error) {
	sizes := []int64{50, 100, 200, 500, 1000}
	if e.quick {
		sizes = []int64{5, 10, 20}
	}
	rf := findReference()
	py, refPath, withRef := rf.py, rf.path, rf.why == ""
	ncpu := runtime.GOMAXPROCS(0)
	var rows []sizeRow
	var configsDir string
	for _, mb := range sizes {
		r := sizeRow{mb: mb}
		oursReps, refReps := scaleReps(e, mb)
		if !withRef {
			refReps = 0
		}
		r.oursReps, r.refReps = oursReps, refReps
		if mb == 200 && !e.quick && e.bigDec1 != nil && e.bigOurs != nil && (refReps == 0 || e.bigRef != nil) {
			r.reused = true
			r.size, r.samples, r.nsp, r.genS = e.bigSize, e.bigSamples, e.bigNSP, e.bigGenS
			r.dec1, r.decN, r.ours, r.ref = e.bigDec1, e.bigDecN, e.bigOurs, e.bigRef
			r.oursReps, r.refReps = len(e.bigOurs), len(e.bigRef)
			rows = append(rows, r)
			continue
		}
		dir := filepath.Join(e.work, fmt.Sprintf("scale-%d", mb))
		e.logf("scale: generating %d MB", mb)
		g, err := bench.Time(func() error {
			var err error
			r.size, err = bench.GenerateRun(dir, bench.LogSpec(), mb*1e6)
			return err
		})
		if err != nil {
			return "", err
		}
		r.genS = g.Wall
		path := filepath.Join(dir, "events.jsonl")
		if err := warmFile(path); err != nil {
			return "", err
		}
		e.logf("scale: %d MB: decode ×%d", mb, oursReps)
		if r.dec1, err = repeatGC(oursReps, func() error { var err error; r.samples, err = decodeOnce(path, 1, false); return err }); err != nil {
			return "", err
		}
		if r.decN, err = repeatGC(oursReps, func() error { _, err := decodeOnce(path, ncpu, false); return err }); err != nil {
			return "", err
		}
		decoded = columnar.Decoded{} // free the biggest buffers before the next size
		runtime.GC()
		ourJSON := filepath.Join(dir, "ours.json")
		if r.ours, err = children(e, oursReps, fmt.Sprintf("scale: %d MB: analyze", mb), func() *exec.Cmd { return analyzeCmd(e, dir, ourJSON) }); err != nil {
			return "", err
		}
		r.nsp = nSuperPasses(ourJSON)
		if refReps > 0 {
			refJSON := filepath.Join(dir, "reference.json")
			r.ref, err = children(e, refReps, fmt.Sprintf("scale: %d MB: reference", mb), func() *exec.Cmd {
				return referenceCmd(e, py, refPath, dir, refJSON)
			})
			if err != nil {
				return "", err
			}
		}
		if mb == sizes[0] {
			configsDir = dir // kept for the configs table below
		} else if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
		rows = append(rows, r)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "## 5. Scale\n\n### With log size\n\n")
	fmt.Fprintf(&b, "Logs of each size from the same spec as section 1 (so the super-pass count grows with the size). "+
		"Decode as in section 1 (no tokenizer); analyze and the reference as in section 3 (word counts, fresh process, "+
		"no cache). The 200 MB row is the run of sections 1 and 3 and reuses their measurements. To stay within the "+
		"time budget the other sizes get fewer repetitions, and the reference skips 500 MB: the *reps* column gives ours / "+
		"the reference's. The *per 100 MB* columns are CPU seconds per 100 MB: constant down a column means the cost "+
		"is linear in the log size.\n\n")
	fmt.Fprintf(&b, "| log | samples | super-passes | reps | generate | decode 1 worker MB/s | decode %d workers MB/s | "+
		"decode CPU s per 100 MB | analyze wall | analyze CPU s per 100 MB | analyze peak RSS |", ncpu)
	if withRef {
		b.WriteString(" reference wall | reference CPU s per 100 MB | reference peak RSS | speed-up (wall) |")
	}
	b.WriteString("\n|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
	if withRef {
		b.WriteString("---:|---:|---:|---:|")
	}
	b.WriteString("\n")
	per100 := func(cpu float64, size int64) float64 { return cpu / (float64(size) / 1e8) }
	for _, r := range rows {
		m1 := measured{size: r.size, samples: r.dec1}
		mN := measured{size: r.size, samples: r.decN}
		reps := fmt.Sprintf("%d", r.oursReps)
		if withRef {
			reps = fmt.Sprintf("%d / %d", r.oursReps, r.refReps)
		}
		if r.reused {
			reps += " (§1, §3)"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %.1f s | %.0f | %.0f | %.3f | %.2f s | %.3f | %s |",
			fmtMB(r.size), r.samples, r.nsp, reps, r.genS, bench.Median(m1.mbps()), bench.Median(mN.mbps()),
			per100(bench.Median(bench.CPUs(r.dec1)), r.size), bench.Median(walls(r.ours)),
			per100(bench.Median(cpus(r.ours)), r.size), fmtBytes(bench.Median(rsss(r.ours))))
		if withRef && len(r.ref) == 0 {
			b.WriteString(" – | – | – | – |")
		} else if withRef {
			fmt.Fprintf(&b, " %.2f s | %.3f | %s | %.1f× |", bench.Median(walls(r.ref)), per100(bench.Median(cpus(r.ref)), r.size),
				fmtBytes(bench.Median(rsss(r.ref))), bench.Median(walls(r.ref))/bench.Median(walls(r.ours)))
		}
		b.WriteString("\n")
	}
	if !withRef {
		fmt.Fprintf(&b, "\nThe reference was **not measured**: %s.\n", rf.why)
	}
	b.WriteString("\n")

	// With configs, on the smallest run: the grid's default-preset half
	// costs tens of ms per config on the 200 MB run, too slow for 1000
	// configs within the budget.
	run, err := columnar.ResolveRun(e.ctx, configsDir)
	if err != nil {
		return "", err
	}
	table, err := columnar.Ingest(e.ctx, run, columnar.IngestOptions{Counter: tokenizer.Words{}})
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(configsDir)
	cs, info := table.Samples(), table.Info
	s := &cs
	fmt.Fprintf(&b, "### With configs\n\n")
	fmt.Fprintf(&b, "The sweep path (section 4: one `core.Run`, `Run.Analyze` per config) on the %s run "+
		"above (%d samples, %d super-passes) under `bench.Configs(n)` (half default preset, half reference), one goroutine "+
		"(as one sweep worker analyses one run); total time per repetition and per config. Constant µs/config would mean a cost linear in the number of configs; falling µs/config means better than linear (the per-run rollups and core's per-window memos are shared by more configs).\n\n",
		fmtMB(rows[0].size), s.Len(), rows[0].nsp)
	fmt.Fprintf(&b, "| configs | reps | total wall | total CPU | µs/config (wall) | µs/config (CPU) |\n|---:|---:|---:|---:|---:|---:|\n")
	for _, n := range []int{10, 100, 1000} {
		cfgs, err := bench.Configs(n)
		if err != nil {
			return "", err
		}
		reps := e.reps // fewer for the long ones, to stay within the time budget
		switch {
		case n >= 1000:
			reps = 1
		case n >= 100 || e.quick:
			reps = min(reps, 3)
		}
		e.logf("scale: %d configs ×%d", n, reps)
		wall, cpu, _, err := configCost(cfgs, reps, sweepPath(s, info))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "| %d | %d | %.2f s | %.2f s | %s | %s |\n", n, reps, bench.Median(wall)*float64(n)/1e6,
			bench.Median(cpu)*float64(n)/1e6, fmtRange(wall, "%.0f"), fmtRange(cpu, "%.0f"))
	}
	b.WriteString("\n")
	return b.String(), nil
}
