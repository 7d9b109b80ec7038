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
		{"slurm", "", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8"}, Shard{3, 8}, ""},
		{"slurm 1-based array", "", map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "8"}, Shard{7, 8}, ""},
		{"slurm count from flag", "/4", map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, Shard{2, 4}, ""},
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
