package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/steadysweep/steadysweep/corpora"
)

// Shard selects the runs one process of a sharded sweep owns: run r
// belongs to shard r.ShardKey() % Count (FNV-1a of its path relative to
// its root), so shards partition the runs with no coordinator and every
// shard writes its own part files into the same output directory.
type Shard struct {
	Index, Count int
}

// Owns reports whether r belongs to s. The zero Shard owns every run.
func (s Shard) Owns(r corpora.RunRef) bool {
	if s.Count <= 1 {
		return true
	}
	return r.ShardKey()%uint64(s.Count) == uint64(s.Index)
}

// String returns the shard's file-name tag, "<i>of<N>" ("0of1" unsharded).
func (s Shard) String() string {
	if s.Count <= 1 {
		return "0of1"
	}
	return fmt.Sprintf("%dof%d", s.Index, s.Count)
}

// ParseShard resolves the shard of this process from the --shard flag
// value spec and the environment (getenv, usually os.Getenv):
//
//	"i/N"   shard i of N (0 ≤ i < N)
//	"/N"    N shards, the index from the environment (below)
//	""      from the environment if set there, else unsharded
//
// Environment: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (the index
// made 0-based with SLURM_ARRAY_TASK_MIN, so --array=1-8 works), else
// JOB_COMPLETION_INDEX (Kubernetes Indexed Job) with the count from
// STEADYSWEEP_SHARD_COUNT (set it to the Job's completions).
func ParseShard(spec string, getenv func(string) string) (Shard, error) {
	spec = strings.TrimSpace(spec)
	if spec != "" && !strings.HasPrefix(spec, "/") {
		is, ns, ok := strings.Cut(spec, "/")
		i, err1 := strconv.Atoi(is)
		n, err2 := strconv.Atoi(ns)
		if !ok || err1 != nil || err2 != nil {
			return Shard{}, fmt.Errorf("shard %q: want i/N (e.g. 0/4) or /N", spec)
		}
		return checkShard(Shard{i, n}, "--shard "+spec)
	}
	count := 0
	if spec != "" {
		n, err := strconv.Atoi(spec[1:])
		if err != nil {
			return Shard{}, fmt.Errorf("shard %q: want /N with N a count", spec)
		}
		count = n
	}
	env := func(name string) (int, bool, error) {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, false, fmt.Errorf("shard from environment: %s=%q is not an integer", name, v)
		}
		return n, true, nil
	}
	if id, ok, err := env("SLURM_ARRAY_TASK_ID"); err != nil {
		return Shard{}, err
	} else if ok {
		lo, _, err := env("SLURM_ARRAY_TASK_MIN")
		if err != nil {
			return Shard{}, err
		}
		if count == 0 {
			n, ok, err := env("SLURM_ARRAY_TASK_COUNT")
			if err != nil {
				return Shard{}, err
			}
			if !ok {
				return Shard{}, fmt.Errorf("shard from environment: SLURM_ARRAY_TASK_ID set but SLURM_ARRAY_TASK_COUNT is not; pass --shard /N")
			}
			count = n
		}
		return checkShard(Shard{id - lo, count}, "SLURM_ARRAY_TASK_ID")
	}
	if id, ok, err := env("JOB_COMPLETION_INDEX"); err != nil {
		return Shard{}, err
	} else if ok {
		if count == 0 {
			n, ok, err := env("STEADYSWEEP_SHARD_COUNT")
			if err != nil {
				return Shard{}, err
			}
			if !ok {
				return Shard{}, fmt.Errorf("shard from environment: JOB_COMPLETION_INDEX set but no count; set STEADYSWEEP_SHARD_COUNT or pass --shard /N")
			}
			count = n
		}
		return checkShard(Shard{id, count}, "JOB_COMPLETION_INDEX")
	}
	if count > 0 {
		return Shard{}, fmt.Errorf("shard %q: no SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX in the environment", spec)
	}
	return Shard{0, 1}, nil
}

func checkShard(s Shard, from string) (Shard, error) {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return Shard{}, fmt.Errorf("%s: shard %d of %d is out of range (want 0 ≤ i < N)", from, s.Index, s.Count)
	}
	return s, nil
}
