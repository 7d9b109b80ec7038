package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/steadysweep/steadysweep/sinks"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
	"github.com/steadysweep/steadysweep/sweep"
	"github.com/zeebo/xxh3"
)

// sweepRow is the part of a rows-table row these tests compare.
type sweepRow struct {
	run, config, status, reason string
	partial                     bool
}

func (r sweepRow) String() string {
	return fmt.Sprintf("%s|%s|%s|%v|%s", r.run, r.config, r.status, r.partial, r.reason)
}

// readSweepRows reads every published part file of out/rows and checks
// that the directory holds nothing else (no temporaries, no strays).
func readSweepRows(t testing.TB, out string) []sweepRow {
	t.Helper()
	dir := filepath.Join(out, "rows")
	files, err := sinks.PartFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(files) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("%s holds %v; only published part files expected", dir, names)
	}
	var rows []sweepRow
	for _, r := range readParquetRecords(t, files...) {
		rows = append(rows, sweepRow{filepath.Base(r["run_path"].(string)), r["config_id"].(string), r["status"].(string),
			r["reason"].(string), r["partial"].(bool)})
	}
	slices.SortFunc(rows, func(a, b sweepRow) int { return strings.Compare(a.String(), b.String()) })
	return rows
}

// hostileArchive links every reliability case (but "missing") into one
// archive directory, one run per case, plus the good run — and the good
// run once more under another name, which discovery must find only once
// (issue 17 item 9: runs are identified by their real path). The cases
// include issue 17's filesystem objects (hostileFSCases).
//
// The cases are links to directories outside the archive: a sweep of it
// passes --follow-links.
func hostileArchive(t *testing.T) (string, []reliabilityCase) {
	t.Helper()
	arch := t.TempDir()
	var kept []reliabilityCase
	for _, tc := range reliabilityCases(t) {
		if tc.name == "missing" || tc.long && testing.Short() {
			continue
		}
		if err := os.Symlink(tc.setup(t), filepath.Join(arch, tc.name)); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, tc)
	}
	for _, name := range []string{"goodrun", "goodrun_again"} {
		if err := os.Symlink(filepath.Join(repoRoot(t), "testdata", "goodrun"), filepath.Join(arch, name)); err != nil {
			t.Fatal(err)
		}
	}
	return arch, kept
}

// TestSweepHostileInputs sweeps every hostile input at once: exit 0, one
// row per run × config, each with the expected status and reason, and
// the good run unaffected by its neighbours.
func TestSweepHostileInputs(t *testing.T) {
	arch, cases := hostileArchive(t)
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"sweep", arch, "-o", out, "--tokenizer", "words", "--no-cache",
		"--preset", "default,reference", "--jobs", "2", "--follow-links"}, &stdout, &stderr)
	// Some of the hostile runs fail (error rows), the others are analysed.
	if code := exitCode(err, &stderr); code != exitPartial {
		t.Fatalf("exit %d, want 3 (some runs failed): %s", code, stderr.String())
	}
	var g sweep.Grid
	refs, err := g.Configs([]string{"reference"}, nil)
	if err != nil || len(refs) != 1 {
		t.Fatalf("reference preset: %v", err)
	}
	refID := sinks.ConfigID(refs[0])
	rows := readSweepRows(t, out)
	byRun := map[string][]sweepRow{}
	for _, r := range rows {
		byRun[r.run] = append(byRun[r.run], r)
	}
	// want: the default preset's row exactly; the reference preset's row
	// is an error row with the same reason, or else not an error.
	type want struct {
		status, reason string
		partial        bool
	}
	wants := map[string]want{
		"goodrun":             {status: "windowable"},
		"corrupt_gzip":        {status: "partial_dataset", reason: "less than one full super-pass (0 of 8 samples)", partial: true},
		"truncated_zstd":      {status: "partial_dataset", reason: "less than one full super-pass (0 of 8 samples)", partial: true},
		"empty_file":          {status: "error", reason: "empty_file/events.jsonl: the log is empty (no events)"},
		"truncated_last_line": {status: "windowable", partial: true},
		"runmeta_negative":    {status: "error", reason: "analyze: could not resolve dataset/super-pass size"},
		"events_dir":          {status: "error", reason: "events_dir/events.jsonl: is a directory, not a regular file"},
		"zstd_window":         {status: "partial_dataset", reason: "its zstd frame declares a window over 128 MiB", partial: true},
	}
	// Runs that are one file of their directory are named by the file
	// (a GuideLLM report's by its benchmark): run is the base of run_path.
	runName := map[string]string{"yaml_aliases": "report.yaml#0", "undecided_log": "result.json"}
	if len(byRun) != len(cases)+1 {
		t.Errorf("rows for %d runs, want %d", len(byRun), len(cases)+1)
	}
	for _, tc := range append(cases, reliabilityCase{name: "goodrun"}) {
		w, ok := wants[tc.name]
		if !ok {
			w = want{status: tc.status}
			if tc.sweepReason != "" {
				w = want{status: "error", reason: tc.sweepReason}
			}
		}
		got := byRun[cmp.Or(runName[tc.name], tc.name)]
		if len(got) != 2 {
			t.Errorf("%s: %d rows, want 2 (one per config)", tc.name, len(got))
			continue
		}
		def, ref := &got[0], &got[1]
		if def.config == refID {
			def, ref = ref, def
		}
		if def.status != w.status || !strings.Contains(def.reason, w.reason) || def.partial != w.partial {
			t.Errorf("%s: row %s, want status %q, reason containing %q, partial %v", tc.name, def, w.status, w.reason, w.partial)
		}
		if w.status == "error" {
			if ref.status != "error" || !strings.Contains(ref.reason, w.reason) {
				t.Errorf("%s: reference row %s, want an error row too", tc.name, ref)
			}
		} else if ref.status == "error" {
			t.Errorf("%s: reference row %s, want a best-effort result", tc.name, ref)
		}
	}
	if !strings.Contains(stderr.String(), fmt.Sprintf("%d runs × 2 configs: %d rows", len(cases)+1, 2*(len(cases)+1))) {
		t.Errorf("summary line missing:\n%s", stderr.String())
	}
}

// buildOnce holds cmd/steadysweep built into a temporary directory, once
// per test binary (steadysweepBinary).
var buildOnce struct {
	sync.Once
	path string
	err  error
	out  []byte
}

func steadysweepBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "steadysweep-bin-")
		if err != nil {
			buildOnce.err = err
			return
		}
		// A plain go build with the test's own build settings, so it
		// reuses the packages go test just compiled (the Dockerfile's
		// CGO_ENABLED=0 -trimpath build recompiles everything, minutes on
		// a small machine: TestDockerfileBuild, make docker-check).
		buildOnce.path = filepath.Join(dir, "steadysweep")
		cmd := exec.Command("go", "build", "-ldflags", "-X main.version="+testVersion+" -X main.commit="+testCommit,
			"-o", buildOnce.path, "./cmd/steadysweep")
		cmd.Dir = repoRoot(t)
		buildOnce.out, buildOnce.err = cmd.CombinedOutput()
	})
	if buildOnce.err != nil {
		t.Fatalf("go build: %v\n%s", buildOnce.err, buildOnce.out)
	}
	return buildOnce.path
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildOnce.path != "" {
		os.RemoveAll(filepath.Dir(buildOnce.path))
	}
	os.Exit(code)
}

// manyRuns makes an archive of n copies of the good run (each its own
// run id).
func manyRuns(t *testing.T, n int) string {
	t.Helper()
	arch := t.TempDir()
	good := goodRunFiles()
	for i := range n {
		dir := filepath.Join(arch, fmt.Sprintf("g%03d", i/100), fmt.Sprintf("run%04d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		// Distinct mtimes: copies written within one clock tick would
		// share cache keys (content, size and mtime).
		mtime := time.Unix(1_700_000_000+int64(i), 0)
		for name, b := range good {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
	}
	return arch
}

// sweepArgs sweep arch into out: 300 runs × 20 configs.
func sweepArgs(arch, out string, extra ...string) []string {
	return append([]string{"sweep", arch, "-o", out, "--tokenizer", "words", "--no-cache", "--jobs", "1",
		"--set", "warmup_band=0.01,0.02,0.03,0.04,0.05,0.06,0.07,0.08,0.09,0.1",
		"--set", "trend_gate=mk_hamed_rao,mann_kendall"}, extra...)
}

// TestSweepSIGINTThenResume interrupts a child `steadysweep sweep` with
// SIGINT mid-way: exit 130, only valid published Parquet files (no
// temporaries) holding whole runs; --resume then completes it to exactly
// the rows of an uninterrupted sweep. A SIGKILLed sweep (a crash, a full
// disk's hard stop) leaves temporaries that --resume discards.
func TestSweepSIGINTThenResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and sweeps 300 runs three times: skipped under -short")
	}
	bin := steadysweepBinary(t)
	arch := manyRuns(t, 300)
	whole, cut := filepath.Join(t.TempDir(), "whole"), filepath.Join(t.TempDir(), "cut")

	first := exec.Command(bin, sweepArgs(arch, whole, "-q")...)
	if b, err := first.CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted sweep: %v\n%s", err, b)
	}
	// CPU time, not wall time, decides when to interrupt: it does not
	// depend on how loaded the machine is.
	full := first.ProcessState.UserTime() + first.ProcessState.SystemTime()
	want := readSweepRows(t, whole)
	if len(want) != 300*20 {
		t.Fatalf("uninterrupted sweep: %d rows, want %d", len(want), 300*20)
	}

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			out := cut + "-" + strings.ReplaceAll(sig.String(), " ", "")
			cmd := exec.Command(bin, sweepArgs(arch, out)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitForCPU(t, cmd.Process.Pid, full*2/5)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if sig == syscall.SIGINT {
				if code != exitInterrupted {
					t.Fatalf("exit %d (%v), want 130 (sweep took %v uninterrupted)\n%s", code, err, full, stderr.String())
				}
				if !strings.Contains(stderr.String(), "sweep interrupted after") {
					t.Errorf("stderr lacks the interruption message:\n%s", stderr.String())
				}
				got := readSweepRows(t, out) // fails on a temporary or an invalid file
				if len(got) == 0 || len(got) >= len(want) || len(got)%20 != 0 {
					t.Fatalf("interrupted sweep left %d rows; want whole runs (multiple of 20), some but not all", len(got))
				}
			} else {
				tmps, _ := filepath.Glob(filepath.Join(out, "rows", ".part-*.tmp"))
				t.Logf("SIGKILL left %d temporaries", len(tmps))
			}
			var resumeErr bytes.Buffer
			resume := exec.Command(bin, sweepArgs(arch, out, "--resume")...)
			resume.Stderr = &resumeErr
			if err := resume.Run(); err != nil {
				t.Fatalf("resume: %v\n%s", err, resumeErr.String())
			}
			got := readSweepRows(t, out)
			if !slices.Equal(got, want) {
				t.Fatalf("interrupted + resumed: %d rows, uninterrupted %d; they differ", len(got), len(want))
			}
		})
	}
}

// waitForCPU waits until process pid has used d of CPU time (Linux
// /proc/PID/stat, 100 ticks a second), or has exited.
func waitForCPU(t *testing.T, pid int, d time.Duration) {
	t.Helper()
	for {
		used, zombie := procCPU(t, pid)
		if zombie || used >= d {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// procCPU is the user+system CPU time process pid has used so far (from
// /proc/PID/stat, in clock ticks of 10 ms), and whether it has exited.
func procCPU(t *testing.T, pid int) (used time.Duration, zombie bool) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatalf("read /proc/%d/stat: %v", pid, err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond, f[0] == "Z"
}

// TestSweepUnwritableOutput: an output directory that cannot be created
// is exit 1 with one clear line, and nothing appears under it. Tests run
// as root, who ignores permission bits, so the path goes through a
// regular file (ENOTDIR) and through /proc.
func TestSweepUnwritableOutput(t *testing.T) {
	good := filepath.Join(repoRoot(t), "testdata", "goodrun")
	file := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, want string }{
		{filepath.Join(file, "out"), "not a directory"},
		{"/proc/steadysweep-out", "create output directory: mkdir /proc/steadysweep-out"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), []string{"sweep", good, "-o", tc.out, "--tokenizer", "words", "--no-cache"}, &stdout, &stderr)
		if code := exitCode(err, &stderr); code != exitFailure {
			t.Errorf("-o %s: exit %d, want 1: %s", tc.out, code, stderr.String())
		}
		if got := stderr.String(); !strings.Contains(got, tc.want) || strings.Count(got, "steadysweep: ") != 1 {
			t.Errorf("-o %s: stderr %q, want one line with %q", tc.out, got, tc.want)
		}
		if _, err := os.Stat(tc.out); err == nil {
			t.Errorf("-o %s exists after the failure", tc.out)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "x" {
		t.Errorf("the plain file was modified: %q", b)
	}
}

// TestSweepLeavesInputsAlone runs the binary with HOME, XDG_CACHE_HOME,
// TMPDIR and the working directory pointed at empty directories, over a
// read-only archive of good and hostile runs, with a cache: the inputs
// keep every byte, mode and mtime, and files appear only under -o and
// --cache-dir.
func TestSweepLeavesInputsAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped under -short")
	}
	bin := steadysweepBinary(t)
	root := repoRoot(t)
	arch := t.TempDir()
	for _, name := range []string{"goodrun", "malformed/not_object", "malformed/corrupt_gzip", "malformed/truncated_zstd",
		"malformed/config_not_yaml", "malformed/runmeta_negative", "malformed/empty_file"} {
		if err := os.Rename(copyRun(t, filepath.Join(root, "testdata", name)), filepath.Join(arch, filepath.Base(name))); err != nil {
			t.Fatal(err)
		}
	}
	makeReadOnly(t, arch)
	before := hashTree(t, arch)
	home, xdg, tmp, cwd := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	work := t.TempDir()
	out, cache := filepath.Join(work, "out"), filepath.Join(work, "cache")
	for i := range 2 {
		args := []string{"sweep", arch, "-o", out, "--tokenizer", "words", "--cache-dir", cache, "--preset", "default,reference"}
		if i == 1 {
			args = append(args, "--resume", "--set", "warmup_band=0.02")
		}
		cmd := exec.Command(bin, args...)
		cmd.Dir = cwd
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CACHE_HOME="+xdg, "TMPDIR="+tmp)
		// runmeta_negative fails: exit 3, some runs failed.
		if b, err := cmd.CombinedOutput(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitPartial {
			t.Fatalf("sweep %d: %v, want exit 3\n%s", i, err, b)
		}
	}
	after := hashTree(t, arch)
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s changed: %s → %s", p, h, after[p])
		}
	}
	if len(after) != len(before) {
		t.Errorf("archive: %d paths before, %d after", len(before), len(after))
	}
	for _, d := range []string{home, xdg, tmp, cwd} {
		if es, _ := os.ReadDir(d); len(es) != 0 {
			t.Errorf("%s gained %d entries (first %s)", d, len(es), es[0].Name())
		}
	}
	if es, _ := os.ReadDir(work); len(es) != 2 {
		t.Errorf("work dir holds %d entries, want out and cache", len(es))
	}
	rows := readSweepRows(t, out)
	if len(rows) != 7*4 {
		t.Errorf("%d rows, want 28 (7 runs × 2 presets, then × 2 more with warmup_band=0.02)", len(rows))
	}
}

// TestSweepConcurrentCache runs two sweeps at once on one --cache-dir
// (separate outputs): both succeed with the rows of a cache-less sweep;
// then every cache entry is corrupted and a third sweep rebuilds them,
// still with the same rows.
func TestSweepConcurrentCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped under -short")
	}
	bin := steadysweepBinary(t)
	arch := manyRuns(t, 40)
	work := t.TempDir()
	cache := filepath.Join(work, "cache")
	sweepTo := func(out string, extra ...string) *exec.Cmd {
		args := append([]string{"sweep", arch, "-o", filepath.Join(work, out), "--tokenizer", "words", "--jobs", "2", "-q",
			"--preset", "default,reference"}, extra...)
		return exec.Command(bin, args...)
	}
	if b, err := sweepTo("nocache", "--no-cache").CombinedOutput(); err != nil {
		t.Fatalf("cache-less sweep: %v\n%s", err, b)
	}
	want := readSweepRows(t, filepath.Join(work, "nocache"))
	if len(want) != 80 {
		t.Fatalf("%d rows, want 80", len(want))
	}
	a, b := sweepTo("a", "--cache-dir", cache), sweepTo("b", "--cache-dir", cache)
	var ea, eb bytes.Buffer
	a.Stderr, b.Stderr = &ea, &eb
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	errA, errB := a.Wait(), b.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("concurrent sweeps: %v / %v\n%s\n%s", errA, errB, ea.String(), eb.String())
	}
	for _, out := range []string{"a", "b"} {
		if got := readSweepRows(t, filepath.Join(work, out)); !slices.Equal(got, want) {
			t.Errorf("sweep %s with the shared cache: rows differ from the cache-less sweep", out)
		}
	}
	entries, _ := filepath.Glob(filepath.Join(cache, "*.cols"))
	if len(entries) != 40 {
		t.Fatalf("%d cache entries, want 40 (one per run)", len(entries))
	}
	if tmps, _ := filepath.Glob(filepath.Join(cache, ".tmp-*")); len(tmps) != 0 {
		t.Errorf("cache temporaries left: %v", tmps)
	}
	for _, e := range entries {
		data, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0xff
		if err := os.WriteFile(e, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := sweepTo("c", "--cache-dir", cache).CombinedOutput(); err != nil {
		t.Fatalf("sweep over a corrupt cache: %v\n%s", err, b)
	}
	if got := readSweepRows(t, filepath.Join(work, "c")); !slices.Equal(got, want) {
		t.Errorf("sweep over a corrupt cache: rows differ")
	}
	rebuilt, _ := filepath.Glob(filepath.Join(cache, "*.cols"))
	if len(rebuilt) != 40 {
		t.Errorf("%d cache entries after the rebuild, want 40", len(rebuilt))
	}
	for _, e := range rebuilt {
		data, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(e, fmt.Sprintf("-%016x.cols", xxh3.Hash(data[:len(data)-8]))) {
			t.Errorf("cache entry %s does not match its checksum: the corrupt entry was kept", filepath.Base(e))
		}
	}
}

// seriesKeys reads out/series and returns "run_id/sp" for every row,
// sorted (duplicates kept).
func seriesKeys(t testing.TB, out string) []string {
	t.Helper()
	files, err := sinks.PartFiles(filepath.Join(out, "series"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	sinkstest.EachRecord(t, files, memory.DefaultAllocator, func(_ string, rec arrow.RecordBatch) {
		id := rec.Column(rec.Schema().FieldIndices("run_id")[0]).(*array.String)
		sp := rec.Column(rec.Schema().FieldIndices("sp")[0]).(*array.Int64)
		for i := range int(rec.NumRows()) {
			keys = append(keys, fmt.Sprintf("%s/%d", id.Value(i), sp.Value(i)))
		}
	})
	slices.Sort(keys)
	return keys
}

// TestSweepFullDisk runs the sweep with a file-size limit (ulimit -f: the
// kernel fails the write with EFBIG, as ENOSPC would on a full disk):
// exit 1 with one line naming the file, no part file published half
// written, no temporary left; --resume without the limit then writes
// exactly the rows (and series) of an unconstrained sweep.
func TestSweepFullDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped under -short")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("needs bash for ulimit -f")
	}
	bin := steadysweepBinary(t)
	arch := manyRuns(t, 60)
	work := t.TempDir()
	whole, full := filepath.Join(work, "whole"), filepath.Join(work, "full")
	if b, err := exec.Command(bin, sweepArgs(arch, whole, "-q")...).CombinedOutput(); err != nil {
		t.Fatalf("unconstrained sweep: %v\n%s", err, b)
	}
	want, wantSeries := readSweepRows(t, whole), seriesKeys(t, whole)
	if len(want) != 60*20 || len(wantSeries) != 60*12 {
		t.Fatalf("unconstrained sweep: %d rows, %d series rows", len(want), len(wantSeries))
	}

	// 16 KiB: the series part (7 KB) fits, the rows part (31 KB) does not.
	cmd := exec.Command(bash, append([]string{"-c", `ulimit -f 16; exec "$@"`, "sh", bin}, sweepArgs(arch, full, "-q")...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != exitFailure {
		t.Fatalf("exit %d (%v), want 1\n%s", code, err, stderr.String())
	}
	if got := stderr.String(); !strings.Contains(got, "steadysweep: sweep: write results: ") || !strings.Contains(got, "file too large") ||
		strings.Count(got, "\n") != 1 {
		t.Errorf("stderr %q: want one line naming the write that failed", got)
	}
	if rows := readSweepRows(t, full); len(rows) != 0 { // also fails on a temporary left behind
		t.Errorf("%d rows published by the failed sweep", len(rows))
	}

	resume := exec.Command(bin, sweepArgs(arch, full, "-q", "--resume")...)
	if b, err := resume.CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, b)
	}
	if got := readSweepRows(t, full); !slices.Equal(got, want) {
		t.Errorf("after the full disk and --resume: %d rows, want the %d of an unconstrained sweep", len(got), len(want))
	}
	t.Run("series", func(t *testing.T) {
		got := seriesKeys(t, full)
		if !slices.Equal(got, wantSeries) {
			t.Errorf("after the full disk and --resume: %d series rows, want %d (one per run × super-pass)", len(got), len(wantSeries))
		}
	})
}

// TestSweepMissingRoots: a root that does not exist is a warning and the
// other roots are swept; with no run at all the sweep is exit 1.
func TestSweepMissingRoots(t *testing.T) {
	good := filepath.Join(repoRoot(t), "testdata", "goodrun")
	missing := filepath.Join(t.TempDir(), "nope")
	out := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"sweep", missing, good, "-o", out, "--tokenizer", "words", "--no-cache", "-q"}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if got := stderr.String(); got != "warning: root "+missing+": stat "+missing+": no such file or directory\n" {
		t.Errorf("stderr %q", got)
	}
	if rows := readSweepRows(t, out); len(rows) != 1 || rows[0].run != "goodrun" || rows[0].status != "windowable" {
		t.Errorf("rows %v", rows)
	}

	stdout.Reset()
	stderr.Reset()
	out2 := filepath.Join(t.TempDir(), "out")
	err = run(context.Background(), []string{"sweep", missing, "-o", out2, "--tokenizer", "words"}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != exitFailure || !strings.Contains(stderr.String(), "steadysweep: no runs found under "+missing) {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if _, err := os.Stat(out2); err == nil {
		t.Errorf("output directory created for a sweep of nothing")
	}
}

// TestSweepHostileArchiveUnderLimits is issue 17's sweep over an archive
// holding every hostile case — the reliability corpus, issue 17's FIFOs,
// devices, sparse files, non-finite configs, a linked duplicate, and
// issue 30's second wave (hostileArchiveInside: byte-order marks, names
// that are not UTF-8 or hold a newline, implausible timestamps, a
// report's args past the detection head, a multi-benchmark report, gzip
// and zstd bombs, a 1 M-entry sample index, an unlistable directory,
// links out of the archive) — in a child process under `ulimit -v
// 4000000`: exit 3 and a row per run × config, each error row with a
// reason and the wave's runs as wanted (checkArchiveRows). Then SIGTERM
// at several moments of the same sweep into a fresh OUT — at tenths of
// its CPU time, and while discovery lists the empty directories, while
// the gzip bomb is decompressed and while the big sample index is parsed
// (seen in /proc) — each ends it within a second of CPU time (termAt:
// CPU, not wall time, which a loaded machine stretches) with exit 130,
// or finds it already done, and --resume under the same limit completes
// exactly that set. Last, on the finished OUT: the good run's log emptied
// and --resume replaces its two rows (no stale row beside the new); a
// sweep into an OUT whose rows/ links elsewhere fails and writes nothing
// there; and two sweeps through a cache directory of mode 0777, its
// identity files forged between them (rotateIdentities), give the
// uncached rows.
func TestSweepHostileArchiveUnderLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and sweeps the hostile archive several times: skipped under -short")
	}
	bin := steadysweepBinary(t)
	h := hostileArchiveInside(t)
	arch := h.dir
	limited := func(out string, extra ...string) *exec.Cmd {
		return limitedSweep(bin, arch, out, append([]string{"--no-cache"}, extra...)...)
	}
	whole := filepath.Join(t.TempDir(), "whole")
	first := limited(whole)
	b, err := first.CombinedOutput()
	if first.ProcessState == nil || first.ProcessState.ExitCode() != exitPartial {
		t.Fatalf("sweep under ulimit -v 4000000: %v, want exit 3 (some runs failed)\n%s", err, b)
	}
	full := first.ProcessState.UserTime() + first.ProcessState.SystemTime()
	want := readSweepRows(t, whole)
	checkArchiveRows(t, want, h.runs, h.wants)
	summary := string(b)
	// escape, slash and devzero_events/events.jsonl (a link to /dev/zero).
	if !strings.Contains(summary, "3 link(s) leading outside the PATHs not followed") {
		t.Errorf("the summary does not name the links out of the archive:\n%s", summary)
	}
	if !runningAsRoot(t) && !strings.Contains(summary, "1 unreadable director(ies) not searched") {
		t.Errorf("the summary does not name the unlistable directory:\n%s", summary)
	}
	for _, l := range strings.Split(summary, "\n") {
		if strings.HasPrefix(l, "line2") || !utf8.ValidString(l) {
			t.Errorf("a name split over lines or not UTF-8 in the summary: %q", l)
		}
	}

	type cut struct {
		name string
		wait func(pid int)
		done bool // may have finished first (exit 3 allowed)
	}
	cuts := []cut{
		{name: "discovery", wait: whileListing(t, filepath.Join(arch, "empties"))},
		{name: "decompression"},
		{name: "sidecar parsing"},
	}
	// Past the first 64 KiB of the gzip bomb: detection reads no more.
	cuts[1].wait, _ = whileReading(t, h.bomb, 64<<10)
	cuts[2].wait, _ = whileReading(t, h.bigIndex, 0)
	for _, frac := range []int{1, 3, 6} { // tenths of the uninterrupted sweep's CPU time
		cpu := full * time.Duration(frac) / 10
		cuts = append(cuts, cut{name: fmt.Sprintf("%d/10 of its CPU", frac), wait: func(pid int) { waitForCPU(t, pid, cpu) }, done: true})
	}
	for i, c := range cuts {
		out := filepath.Join(t.TempDir(), fmt.Sprintf("cut%d", i))
		cmd := limited(out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		termAt(t, cmd, c.wait, hangGuard)
		if code := cmd.ProcessState.ExitCode(); code != exitInterrupted && !(c.done && code == exitPartial) {
			t.Fatalf("SIGTERM during %s: exit %d, want 130\n%s", c.name, code, stderr.String())
		}
		readSweepRows(t, out) // only valid published files, no temporaries
		resume := limited(out, "--resume")
		if b, err := resume.CombinedOutput(); resume.ProcessState == nil || resume.ProcessState.ExitCode() != exitPartial {
			t.Fatalf("SIGTERM during %s, then --resume: %v, want exit 3 (the error rows redone, failing again)\n%s", c.name, err, b)
		}
		if got := readSweepRows(t, out); !slices.Equal(got, want) {
			t.Errorf("SIGTERM during %s + --resume: %d rows, uninterrupted %d; they differ", c.name, len(got), len(want))
		}
	}

	// A changed log under --resume replaces its rows.
	if err := os.WriteFile(filepath.Join(arch, "goodrun", "events.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	resume := limited(whole, "--resume")
	if b, err := resume.CombinedOutput(); resume.ProcessState == nil || resume.ProcessState.ExitCode() != exitPartial {
		t.Fatalf("--resume after a log changed: %v\n%s", err, b)
	}
	got := readSweepRows(t, whole)
	if len(got) != len(want) {
		t.Errorf("%d rows after a log changed and --resume, want %d: a stale row kept beside the new", len(got), len(want))
	}
	for _, r := range got {
		if r.run == "goodrun" && (r.status != "error" || !strings.Contains(r.reason, "the log is empty")) {
			t.Errorf("goodrun after its log was emptied: %s, want its empty-log error", r)
		}
	}
	// The good run back, for what follows.
	goodEvents := filepath.Join(arch, "goodrun", "events.jsonl")
	copyRunTo(t, filepath.Join(repoRoot(t), "testdata", "goodrun"), filepath.Join(arch, "goodrun"))
	os.Chtimes(goodEvents, sameTime, sameTime)
	goodB, err := os.ReadFile(goodEvents)
	if err != nil {
		t.Fatal(err)
	}
	goodSHA := fmt.Sprintf("%x", sha256.Sum256(goodB))

	// OUT/rows a link elsewhere: refused, nothing written there.
	linked, elsewhere := filepath.Join(t.TempDir(), "linked"), t.TempDir()
	os.MkdirAll(linked, 0o755)
	if err := os.Symlink(elsewhere, filepath.Join(linked, "rows")); err != nil {
		t.Fatal(err)
	}
	refused := limited(linked)
	b, _ = refused.CombinedOutput()
	if entries, _ := os.ReadDir(elsewhere); refused.ProcessState.ExitCode() == exitOK || len(entries) != 0 ||
		!strings.Contains(string(b), filepath.Join(linked, "rows")+" is a symbolic link") {
		t.Errorf("OUT/rows a link: exit %d, %d file(s) through it, output %s", refused.ProcessState.ExitCode(), len(entries), b)
	}

	// A shared cache whose identity files are forged between two sweeps:
	// goodrun's names its twin's digest (same size, same mtime: the same
	// cache key), whose entry is in the cache.
	cacheDir := filepath.Join(t.TempDir(), "cache")
	if err := os.Mkdir(cacheDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(cacheDir, 0o777); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if i == 1 {
			t.Logf("%d identity files forged", forgeIdentities(t, cacheDir, goodSHA, h.twinSHA))
		}
		out := filepath.Join(t.TempDir(), fmt.Sprintf("cached%d", i))
		cmd := limitedSweep(bin, arch, out, "--cache-dir", cacheDir)
		if b, err := cmd.CombinedOutput(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitPartial {
			t.Fatalf("sweep %d through the shared cache: %v\n%s", i+1, err, b)
		}
		if got := readSweepRows(t, out); !slices.Equal(got, want) {
			t.Errorf("sweep %d through the shared cache (identities forged: %v): rows differ from the uncached sweep's", i+1, i == 1)
		}
		if shas := rowsSHA(t, out, "goodrun"); len(shas) != 2 || shas[0] != goodSHA || shas[1] != goodSHA {
			t.Errorf("sweep %d through the shared cache: goodrun's rows record events %v, want its own %s (the twin's: %s)", i+1, shas, goodSHA, h.twinSHA)
		}
	}
}
