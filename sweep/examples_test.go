package sweep

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The shipped examples stay valid: the grid expands to 18 sets, and the
// Indexed Job's shard count matches its completions.
func TestExamples(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "examples")
	data, err := os.ReadFile(filepath.Join(dir, "grid.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGrid(data)
	if err != nil {
		t.Fatal(err)
	}
	if cs, err := g.Configs([]string{"default"}, nil); err != nil || len(cs) != 18 {
		t.Fatalf("examples/grid.yaml: %d configs, %v; want 18", len(cs), err)
	}

	data, err = os.ReadFile(filepath.Join(dir, "k8s-indexed-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Template       struct {
				Spec struct {
					Containers []struct {
						Env []struct{ Name, Value string } `yaml:"env"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(data, &job); err != nil {
		t.Fatal(err)
	}
	count := ""
	for _, e := range job.Spec.Template.Spec.Containers[0].Env {
		if e.Name == "STEADYSWEEP_SHARD_COUNT" {
			count = e.Value
		}
	}
	env := map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(job.Spec.Completions - 1), "STEADYSWEEP_SHARD_COUNT": count}
	s, err := ParseShard("", func(k string) string { return env[k] })
	if job.Spec.CompletionMode != "Indexed" || err != nil || s.Count != job.Spec.Completions {
		t.Fatalf("k8s example: mode %q, shard %v, %v; completions %d", job.Spec.CompletionMode, s, err, job.Spec.Completions)
	}
}
