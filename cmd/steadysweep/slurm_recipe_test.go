package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// slurmTask runs examples/slurm.sh as Slurm would run array task id of an
// array spanning ids lo..hi with count tasks (count 0: no array), and
// returns its log.
func slurmTask(t *testing.T, bin, dir string, id, lo, hi, count int, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join(repoRoot(t), "examples", "slurm.sh")}, args...)...)
	cmd.Dir = dir
	env := []string{"STEADYSWEEP=" + bin, "GRID=", "SLURM_JOB_ID=77", "SLURM_CPUS_PER_TASK=1", "PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	if count > 0 {
		env = append(env, "SLURM_ARRAY_JOB_ID=77", "SLURM_ARRAY_TASK_ID="+strconv.Itoa(id),
			"SLURM_ARRAY_TASK_MIN="+strconv.Itoa(lo), "SLURM_ARRAY_TASK_MAX="+strconv.Itoa(hi), "SLURM_ARRAY_TASK_COUNT="+strconv.Itoa(count))
	}
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func rowStrings(t *testing.T, out string) []string {
	var s []string
	for _, r := range readSweepRows(t, out) {
		s = append(s, r.String())
	}
	slices.Sort(s)
	return s
}

// examples/slurm.sh as a Slurm array would run it, without Slurm (the
// real cluster is examples/slurm-check.sh): into a fresh OUT, with sweep
// flags after OUT, the tasks of --array=0-3 together write exactly the
// rows of an unsharded sweep; a resubmitted subset (--array=1,3, whose
// Slurm COUNT is 2) keeps the four shards and adds nothing; each task's
// log has its start line, and the summary.
func TestSlurmRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs the recipe 7 times: skipped under -short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	bin := steadysweepBinary(t)
	arch := manyRuns(t, 12)
	work := t.TempDir()
	out := filepath.Join(work, "fresh", "out") // does not exist yet
	flags := []string{arch, out, "--tokenizer", "words", "--no-cache", "--preset", "default,reference", "--set", "warmup_band=0.03,0.05"}
	for id := range 4 {
		log, err := slurmTask(t, bin, work, id, 0, 3, 4, flags...)
		if err != nil {
			t.Fatalf("task %d: %v\n%s", id, err, log)
		}
		if !strings.Contains(log, "steadysweep task "+strconv.Itoa(id)+" of job 77") || !strings.Contains(log, "configs:") {
			t.Errorf("task %d log lacks the start line or the summary:\n%s", id, log)
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, ".steadysweep-shards")); err != nil || strings.TrimSpace(string(b)) != "4" {
		t.Errorf("recorded shard count %q, %v; want 4", b, err)
	}
	parts, _ := filepath.Glob(filepath.Join(out, "rows", "part-*of4-*.parquet"))
	if len(parts) < 2 {
		t.Errorf("rows part files %v: want the shards' own (part-<k>of4-…)", parts)
	}

	whole := filepath.Join(work, "whole")
	if log, err := slurmTask(t, bin, work, 0, 0, 0, 0, append([]string{arch, whole}, flags[2:]...)...); err != nil {
		t.Fatalf("unsharded: %v\n%s", err, log)
	}
	want := rowStrings(t, whole)
	if len(want) != 12*4 {
		t.Fatalf("unsharded sweep: %d rows, want 48", len(want))
	}
	if got := rowStrings(t, out); !slices.Equal(got, want) {
		t.Fatalf("the shards' union differs from the unsharded sweep:\n%v\n%v", got, want)
	}

	for _, id := range []int{1, 3} {
		log, err := slurmTask(t, bin, work, id, 1, 3, 2, flags...)
		if err != nil || !strings.Contains(log, "mod 4") || !strings.Contains(log, "0 analysed") {
			t.Fatalf("resubmitted task %d: %v\n%s", id, err, log)
		}
	}
	if got := rowStrings(t, out); !slices.Equal(got, want) {
		t.Fatal("resubmitting tasks 1 and 3 changed the rows")
	}
}
