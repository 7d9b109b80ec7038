package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/steadysweep/steadysweep/bench/benchlog"
)

// archiveWant is what the default-config row of one run of the hostile
// archive says: an error row's reason (a fragment), or, with reason "",
// any row that is not an error.
type archiveWant struct{ status, reason string }

// hostileArch is the archive of TestSweepHostileArchiveUnderLimits.
type hostileArch struct {
	dir  string
	runs int
	// wants are the wave's runs' rows by run name (the base of run_path).
	wants map[string]archiveWant
	// bigIndex and bomb (the gzip one) are the files SIGTERM is sent
	// while they are read.
	bigIndex, bomb string
	// twinSHA is the SHA-256 of forged_twin's events file: goodrun's log
	// with every COMPLETE 7 ms later, of the same size and mtime (sameTime).
	twinSHA string
}

// sameTime is the mtime of goodrun's and forged_twin's events files.
var sameTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// hostileArchiveInside is the archive of TestSweepHostileArchiveUnderLimits:
// every reliability case (hostileArchive's, moved or copied in rather
// than linked, so the sweep needs no --follow-links), the good run and a
// link to it inside the archive (found once), and issue 30's second wave
// (wave30).
func hostileArchiveInside(t *testing.T) hostileArch {
	t.Helper()
	arch := filepath.Join(t.TempDir(), "arch")
	if err := os.Mkdir(arch, 0o755); err != nil {
		t.Fatal(err)
	}
	repo := repoRoot(t)
	runs := 0
	for _, tc := range reliabilityCases(t) {
		if tc.name == "missing" || tc.long && testing.Short() {
			continue
		}
		src, dst := tc.setup(t), filepath.Join(arch, tc.name)
		if strings.HasPrefix(src, repo) {
			copyRunTo(t, src, dst)
		} else if err := os.Rename(src, dst); err != nil {
			t.Fatal(err)
		}
		if tc.name != "devzero_events" { // its events file links out of the archive: not followed
			runs++
		}
	}
	copyRunTo(t, filepath.Join(repo, "testdata", "goodrun"), filepath.Join(arch, "goodrun"))
	os.Chtimes(filepath.Join(arch, "goodrun", "events.jsonl"), sameTime, sameTime)
	if err := os.Symlink(filepath.Join(arch, "goodrun"), filepath.Join(arch, "goodrun_again")); err != nil {
		t.Fatal(err)
	}
	h := wave30(t, arch)
	h.dir, h.runs = arch, h.runs+runs+1
	return h
}

// wave30 puts issue 30's second wave of hostile inputs into arch, each
// scaled to read in well under a second: logs in UTF-16LE and UTF-32BE
// (byte-order mark first), a run directory named with invalid UTF-8, a
// control byte and a newline, an AIPerf log 1 % of whose records are
// stamped 9.2e18 ns, a GuideLLM report whose args outgrow the 256 KiB
// detection head, a report of three benchmarks, a gzip'd log with one
// 320 MiB line (over the line cap; 310 KB on disk), a zstd'd one whose line would be 400
// MiB (over the expansion cap), a run whose sample_idx_map.json holds
// 1 M entries (45 MB), 20,000 empty directories, a directory that can be
// listed by no one (mode 0644), links out of the archive (to a run
// elsewhere and to /), and goodrun's forged twin. Its runs are those it
// adds.
func wave30(t *testing.T, arch string) (h hostileArch) {
	repo := repoRoot(t)
	td := filepath.Join(repo, "columnar", "testdata")
	good := filepath.Join(repo, "testdata", "goodrun")
	write := func(rel string, b []byte) string {
		t.Helper()
		p := filepath.Join(arch, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	read := func(p string) []byte {
		t.Helper()
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	h.wants = map[string]archiveWant{}
	add := func(name string, w archiveWant) { h.wants[name] = w; h.runs++ }

	// Byte-order marks: refused by name and encoding, a row each.
	write("utf16/profile_export_utf16.jsonl", encodeBOM(t, read(filepath.Join(td, "aiperf_burst", "profile_export.jsonl")), "UTF-16LE"))
	add("profile_export_utf16.jsonl", archiveWant{"error", "UTF-16LE log (byte-order mark): not read; convert it to UTF-8"})
	write("utf32/benchmarks_utf32.json", encodeBOM(t, read(filepath.Join(td, "guidellm_sync", "benchmarks.json")), "UTF-32BE"))
	add("benchmarks_utf32.json", archiveWant{"error", "UTF-32BE log (byte-order mark): not read; convert it to UTF-8"})

	// Names are data: the rows name the run escaped.
	copyRunTo(t, good, filepath.Join(arch, hostileGoodName))
	add(hostileGoodEscaped, archiveWant{})

	// Implausible timestamps: one record in 100 at 9.2e18 ns.
	var ai bytes.Buffer
	for i := range 2000 {
		ts := int64(1759522419000000000) + int64(i)*10_000_000
		if i%100 == 50 {
			ts = 9_200_000_000_000_000_000
		}
		fmt.Fprintf(&ai, `{"metadata":{"x_request_id":"r%d","timestamp_ns":%d,"credit_phase":"profiling"},"metrics":{"ttft":{"value":%d,"unit":"ms"},"request_latency":{"value":%d,"unit":"ms"},"output_sequence_length":{"value":100,"unit":"tokens"}}}`+"\n",
			i, ts, 50+i%5, 500+i%17)
	}
	write("implausible_aiperf/profile_export.jsonl", ai.Bytes())
	add("implausible_aiperf", archiveWant{})

	// A GuideLLM report whose args outgrow the detection head, and one of
	// three benchmarks (three runs, "#0" … "#2").
	var report map[string]any
	if err := json.Unmarshal(read(filepath.Join(td, "guidellm_sync", "benchmarks.json")), &report); err != nil {
		t.Fatal(err)
	}
	args, _ := report["args"].(map[string]any)
	if args == nil {
		args = map[string]any{}
	}
	args["padding"] = strings.Repeat("p", 300<<10)
	report["args"] = args
	big, _ := json.Marshal(report)
	write("big_args/big_args_report.json", big)
	add("big_args_report.json#0", archiveWant{})
	delete(args, "padding")
	bench := report["benchmarks"].([]any)
	report["benchmarks"] = []any{bench[0], bench[0], bench[0]}
	three, _ := json.Marshal(report)
	write("multi/three_benchmarks.json", three)
	for i := range 3 {
		add(fmt.Sprintf("three_benchmarks.json#%d", i), archiveWant{})
	}

	// Compression bombs after the good run's lines: gzip (deflate stops
	// near 1000:1, so the line cap bounds it) and zstd (the expansion cap).
	events := read(filepath.Join(good, "events.jsonl"))
	bombRun := func(name, file string, b []byte) string {
		copyRunTo(t, good, filepath.Join(arch, name))
		os.Remove(filepath.Join(arch, name, "events.jsonl"))
		return write(filepath.Join(name, file), b)
	}
	var gz bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(events)
	line := bytes.Repeat([]byte("a"), 1<<20)
	for range 320 {
		gw.Write(line)
	}
	gw.Write([]byte("\n"))
	gw.Close()
	h.bomb = bombRun("gzip_bomb", "events.jsonl.gz", gz.Bytes())
	add("gzip_bomb", archiveWant{})
	var zs bytes.Buffer
	zw, err := zstd.NewWriter(&zs, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(events)
	for range 400 {
		zw.Write(line)
	}
	zw.Close()
	bombRun("zstd_bomb", "events.jsonl.zst", zs.Bytes())
	add("zstd_bomb", archiveWant{})

	// A sample index of 1 M entries.
	copyRunTo(t, good, filepath.Join(arch, "big_index"))
	h.bigIndex = filepath.Join(arch, "big_index", "sample_idx_map.json")
	f, err := os.Create(h.bigIndex)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(benchlog.SampleIndex(f, 1_000_000), f.Close()); err != nil {
		t.Fatal(err)
	}
	add("big_index", archiveWant{})

	// Directories: many empty ones (discovery's work), one no one can
	// list (root can: then it is a run like any other).
	for i := range 20_000 {
		if err := os.MkdirAll(filepath.Join(arch, "empties", fmt.Sprintf("g%03d", i%200), fmt.Sprintf("d%05d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	locked := filepath.Join(arch, "unlistable")
	copyRunTo(t, good, locked)
	if err := os.Chmod(locked, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if runningAsRoot(t) {
		add("unlistable", archiveWant{})
	}

	// Links out of the archive: neither is followed.
	elsewhere := t.TempDir()
	copyRunTo(t, good, filepath.Join(elsewhere, "outside_run"))
	for name, target := range map[string]string{"escape": elsewhere, "slash": "/"} {
		if err := os.Symlink(target, filepath.Join(arch, name)); err != nil {
			t.Fatal(err)
		}
	}
	// goodrun's twin: every COMPLETE 7 ms later, digits permitting (the
	// same size), and the same mtime.
	twin := bytes.Clone(events)
	key := []byte(`"event_type":"sample.complete","timestamp_ns":`)
	for at := 0; ; {
		i := bytes.Index(twin[at:], key)
		if i < 0 {
			break
		}
		at += i + len(key)
		end := at + bytes.IndexByte(twin[at:], ',')
		var ts int64
		fmt.Sscan(string(twin[at:end]), &ts)
		if s := fmt.Sprint(ts + 7_000_000); len(s) == end-at {
			copy(twin[at:end], s)
		}
	}
	copyRunTo(t, good, filepath.Join(arch, "forged_twin"))
	p := write("forged_twin/events.jsonl", twin)
	os.Chtimes(p, sameTime, sameTime)
	h.twinSHA = fmt.Sprintf("%x", sha256.Sum256(twin))
	add("forged_twin", archiveWant{})
	return h
}

// whileListing is a wait for termAt: it returns once process pid has a
// directory under dir open (discovery under way there).
func whileListing(t *testing.T, dir string) func(pid int) {
	return func(pid int) {
		for {
			fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
			for _, fd := range fds {
				if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && strings.HasPrefix(l, dir+"/") {
					return
				}
			}
			if _, zombie := procCPU(t, pid); zombie {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// checkArchiveRows checks the rows of a sweep of hostileArchiveInside:
// two per run (one per config), every error row with a reason, and the
// wave's runs as wanted.
func checkArchiveRows(t *testing.T, rows []sweepRow, runs int, wants map[string]archiveWant) {
	t.Helper()
	byRun := map[string][]sweepRow{}
	for _, r := range rows {
		byRun[r.run] = append(byRun[r.run], r)
	}
	if len(rows) != 2*runs {
		var names []string
		for name, rs := range byRun {
			names = append(names, fmt.Sprintf("%q:%d", name, len(rs)))
		}
		slices.Sort(names)
		t.Fatalf("%d rows, want %d (2 configs × %d runs): a run dropped or doubled; rows by run: %s", len(rows), 2*runs, runs, strings.Join(names, " "))
	}
	clear(byRun)
	nErr := 0
	for _, r := range rows {
		byRun[r.run] = append(byRun[r.run], r)
		if r.status == "error" {
			nErr++
			if r.reason == "" {
				t.Errorf("error row without a reason: %s", r)
			}
		}
	}
	if nErr == 0 || nErr == len(rows) {
		t.Errorf("%d error rows of %d: the archive should hold both", nErr, len(rows))
	}
	for name, w := range wants {
		got := byRun[name]
		if len(got) != 2 {
			t.Errorf("%s: %d rows, want 2", name, len(got))
			continue
		}
		for _, r := range got {
			if w.reason == "" && r.status == "error" || w.reason != "" && (r.status != w.status || !strings.Contains(r.reason, w.reason)) {
				t.Errorf("%s: row %s, want status %q with reason %q (or, with none, no error)", name, r, w.status, w.reason)
			}
		}
	}
	for _, name := range []string{"outside_run", "escape", "slash"} {
		if len(byRun[name]) != 0 {
			t.Errorf("rows for %s, outside the archive: %v", name, byRun[name])
		}
	}
}

// forgeIdentities forges a shared cache's identity files (another
// writer's doing): each that records the digest from names the digest to
// instead. It returns how many it changed.
func forgeIdentities(t *testing.T, cache, from, to string) int {
	t.Helper()
	ids, _ := filepath.Glob(filepath.Join(cache, "ids", "*"))
	n := 0
	for _, p := range ids {
		if b, err := os.ReadFile(p); err == nil && strings.TrimSpace(string(b)) == from {
			if err := os.WriteFile(p, []byte(to+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no identity file of %d records %s", len(ids), from)
	}
	return n
}

// rowsSHA is the events_sha256 of the rows of run (the base of its
// run_path) in out.
func rowsSHA(t *testing.T, out, run string) []string {
	t.Helper()
	var shas []string
	for _, r := range readParquetRecords(t, partFiles(t, out, "rows")...) {
		if filepath.Base(r["run_path"].(string)) == run {
			sha, _ := r["events_sha256"].(string)
			shas = append(shas, sha)
		}
	}
	return shas
}

// limitedSweep is a sweep of arch into out in a child process under
// `ulimit -v 4000000` (4 GB of address space), with two configs, two
// jobs, the sweep page and extra.
func limitedSweep(bin, arch, out string, extra ...string) *exec.Cmd {
	args := append([]string{arch, "-o", out, "--tokenizer", "words", "--preset", "default,reference",
		"--jobs", "2", "-q", "--html=" + filepath.Join(out, "index.html")}, extra...)
	return exec.Command("sh", append([]string{"-c", `ulimit -v 4000000 && exec "$0" sweep "$@"`, bin}, args...)...)
}
