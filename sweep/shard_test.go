package sweep

import (
	"strconv"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/corpora"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec string
		env  map[string]string
		want Shard
		err  string
	}{
		{"explicit", "1/4", nil, Shard{1, 4}, ""},
		{"explicit wins over env", "0/2", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"}, Shard{0, 2}, ""},
		{"unsharded", "", nil, Shard{0, 1}, ""},
		{"slurm without MIN/MAX", "", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8"}, Shard{3, 8}, ""},
		{"slurm --array=0-7", "", slurmEnv(3, 0, 7, 8), Shard{3, 8}, ""},
		{"slurm --array=1-8", "", slurmEnv(8, 1, 8, 8), Shard{0, 8}, ""},
		{"slurm --array=1-8 task 1", "", slurmEnv(1, 1, 8, 8), Shard{1, 8}, ""},
		// What Slurm 22.05 sets for a resubmitted --array=1,3 of an
		// --array=0-3 sweep: COUNT is the subset's (2), which made task 3
		// "shard 2 of 2 is out of range" (the subset's MIN subtracted).
		{"slurm resubmitted subset 1,3 without a count", "", slurmEnv(3, 1, 3, 2), Shard{}, "STEADYSWEEP_SHARD_COUNT=N"},
		{"slurm resubmitted subset 1,3, count from env", "", with(slurmEnv(3, 1, 3, 2), "STEADYSWEEP_SHARD_COUNT", "4"), Shard{3, 4}, ""},
		{"slurm resubmitted subset 1,3, count from flag", "/4", slurmEnv(1, 1, 3, 2), Shard{1, 4}, ""},
		{"slurm resubmitted subset of a 1-based array", "/4", slurmEnv(4, 2, 4, 2), Shard{0, 4}, ""},
		{"slurm array wider than its count", "/4", slurmEnv(5, 0, 7, 8), Shard{}, "tasks would share shards"},
		{"slurm count from flag", "/4", map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, Shard{2, 4}, ""},
		{"slurm without count", "", map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, Shard{}, "pass --shard /N"},
		{"k8s", "", map[string]string{"JOB_COMPLETION_INDEX": "5", "STEADYSWEEP_SHARD_COUNT": "6"}, Shard{5, 6}, ""},
		{"k8s count from flag", "/6", map[string]string{"JOB_COMPLETION_INDEX": "0"}, Shard{0, 6}, ""},
		{"k8s without count", "", map[string]string{"JOB_COMPLETION_INDEX": "0"}, Shard{}, "STEADYSWEEP_SHARD_COUNT"},
		{"index out of range", "4/4", nil, Shard{}, "out of range"},
		{"garbage", "a/b", nil, Shard{}, "want i/N"},
		{"zero count", "0/0", nil, Shard{}, "out of range"},
		{"bad env", "", map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, Shard{}, "not an integer"},
		{"count without index", "/3", nil, Shard{}, "no SLURM_ARRAY_TASK_ID"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseShard(tc.spec, func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want error containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// slurmEnv is the environment of task id of a Slurm array spanning
// ids lo..hi with count tasks.
func slurmEnv(id, lo, hi, count int) map[string]string {
	return map[string]string{"SLURM_ARRAY_TASK_ID": strconv.Itoa(id), "SLURM_ARRAY_TASK_MIN": strconv.Itoa(lo),
		"SLURM_ARRAY_TASK_MAX": strconv.Itoa(hi), "SLURM_ARRAY_TASK_COUNT": strconv.Itoa(count)}
}

func with(env map[string]string, k, v string) map[string]string {
	env[k] = v
	return env
}

// Every way of running a sharded sweep as a Slurm array covers each shard
// exactly once: 0- and 1-based whole arrays, and a whole array followed by
// resubmitted subsets given the count, which land on the shards the
// first submission gave those task ids.
func TestSlurmShardsCoverOnce(t *testing.T) {
	const n = 6
	for _, base := range []int{0, 1} {
		seen := map[int]int{}
		byID := map[int]Shard{}
		for id := base; id < base+n; id++ {
			s, err := ParseShard("", func(k string) string { return slurmEnv(id, base, base+n-1, n)[k] })
			if err != nil || s.Count != n {
				t.Fatalf("--array=%d-%d task %d: %v, %v", base, base+n-1, id, s, err)
			}
			seen[s.Index]++
			byID[id] = s
		}
		if len(seen) != n {
			t.Errorf("--array=%d-%d: shards %v, want each of %d once", base, base+n-1, seen, n)
		}
		subset := []int{base + 1, base + 3, base + 4}
		for _, id := range subset {
			env := with(slurmEnv(id, subset[0], subset[2], len(subset)), "STEADYSWEEP_SHARD_COUNT", strconv.Itoa(n))
			s, err := ParseShard("", func(k string) string { return env[k] })
			if err != nil || s != byID[id] {
				t.Errorf("resubmitted task %d of --array=%d-%d: %v, %v; want %v as first submitted", id, base, base+n-1, s, err, byID[id])
			}
		}
	}
}

func TestShardPartition(t *testing.T) {
	var refs []corpora.RunRef
	for i := range 1000 {
		refs = append(refs, corpora.RunRef{Rel: "archive/run" + string(rune('a'+i%26)) + "/" + strings.Repeat("x", i%13) + string(rune('0'+i%10)) + "-" + strconv.Itoa(i)})
	}
	for _, n := range []int{1, 2, 3, 7} {
		counts := make([]int, n)
		for _, r := range refs {
			owners := 0
			for i := range n {
				if (Shard{i, n}).Owns(r) {
					owners++
					counts[i]++
				}
			}
			if owners != 1 {
				t.Fatalf("N=%d: run %s owned by %d shards", n, r.Rel, owners)
			}
		}
		for i, c := range counts {
			if c < 1000/n/2 {
				t.Errorf("N=%d: shard %d owns only %d of 1000 runs", n, i, c)
			}
		}
	}
	if (Shard{}).String() != "0of1" || (Shard{2, 5}).String() != "2of5" {
		t.Errorf("String: %s %s", Shard{}, Shard{2, 5})
	}
}
