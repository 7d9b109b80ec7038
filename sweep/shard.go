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
// Environment, when no i/N is given:
//
//   - Slurm job array: shard SLURM_ARRAY_TASK_ID mod N. N is /N, else
//     STEADYSWEEP_SHARD_COUNT, else the whole array's span
//     SLURM_ARRAY_TASK_MAX − SLURM_ARRAY_TASK_MIN + 1, so --array=0-15
//     and --array=1-16 both make 16 shards. A resubmitted subset
//     (--array=1,3, or 2-3) cannot see the original array: give it N (/N
//     or STEADYSWEEP_SHARD_COUNT; examples/slurm.sh records N in OUT) and
//     it keeps the original sharding, the index not depending on the
//     subset. One whose task count differs from its span (1,3) is refused
//     without N; a contiguous one (2-3) cannot be told from a whole array.
//   - Kubernetes Indexed Job: shard JOB_COMPLETION_INDEX of N, N from /N
//     or STEADYSWEEP_SHARD_COUNT (set it to the Job's completions).
func ParseShard(spec string, getenv func(string) string) (Shard, error) {
	spec = strings.TrimSpace(spec)
	if spec != "" && !strings.HasPrefix(spec, "/") {
		is, ns, ok := strings.Cut(spec, "/")
		i, err1 := strconv.Atoi(is)
		n, err2 := strconv.Atoi(ns)
		if !ok || err1 != nil || err2 != nil {
			return Shard{}, fmt.Errorf("--shard %s: want i/N (e.g. 0/4) or /N", spec)
		}
		return checkShard(Shard{i, n}, "--shard "+spec)
	}
	count := 0
	if spec != "" {
		n, err := strconv.Atoi(spec[1:])
		if err != nil || n < 1 {
			return Shard{}, fmt.Errorf("--shard %s: want /N with N a count of at least 1", spec)
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
		return slurmShard(id, count, env)
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

// slurmShard is the shard of Slurm array task id (see ParseShard); count
// is the explicit shard count (/N), 0 if none.
func slurmShard(id, count int, env func(string) (int, bool, error)) (Shard, error) {
	var (
		fixed, lo, hi, tasks             int
		hasFixed, hasLo, hasHi, hasTasks bool
		err                              error
	)
	for _, e := range []struct {
		name string
		v    *int
		ok   *bool
	}{{"STEADYSWEEP_SHARD_COUNT", &fixed, &hasFixed}, {"SLURM_ARRAY_TASK_MIN", &lo, &hasLo},
		{"SLURM_ARRAY_TASK_MAX", &hi, &hasHi}, {"SLURM_ARRAY_TASK_COUNT", &tasks, &hasTasks}} {
		if *e.v, *e.ok, err = env(e.name); err != nil {
			return Shard{}, err
		}
	}
	if count == 0 && hasFixed {
		count = fixed
	}
	span, hasSpan := hi-lo+1, hasLo && hasHi
	switch {
	case count > 0 && hasSpan && span > count:
		return Shard{}, fmt.Errorf("shard from environment: the array spans %d ids (%d-%d), more than its %d shards: tasks would share shards",
			span, lo, hi, count)
	case count > 0:
	case hasSpan && (!hasTasks || tasks == span):
		count = span // the whole array
	case hasSpan:
		return Shard{}, fmt.Errorf("shard from environment: the array has %d tasks over ids %d-%d (a resubmitted subset, or a stepped array): "+
			"give the whole array's shard count (STEADYSWEEP_SHARD_COUNT=N or --shard /N)", tasks, lo, hi)
	case hasTasks:
		count = tasks // a Slurm that sets no MIN/MAX
	default:
		return Shard{}, fmt.Errorf("shard from environment: SLURM_ARRAY_TASK_ID set but neither SLURM_ARRAY_TASK_MIN/MAX nor a count; pass --shard /N")
	}
	if count < 1 {
		return Shard{}, fmt.Errorf("shard from environment: shard count %d (want ≥ 1)", count)
	}
	return checkShard(Shard{id % count, count}, "SLURM_ARRAY_TASK_ID")
}

func checkShard(s Shard, from string) (Shard, error) {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return Shard{}, fmt.Errorf("%s: shard %d of %d is out of range (want 0 ≤ i < N)", from, s.Index, s.Count)
	}
	return s, nil
}
