package sidecar

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// mapMemo is a ConfigMemo in memory, counting its hits.
type mapMemo struct {
	records map[string]Config
	hits    int
}

func (m *mapMemo) Parsed(doc []byte) (*Config, bool) {
	c, ok := m.records[string(doc)]
	if ok {
		m.hits++
	}
	return &c, ok
}

func (m *mapMemo) Remember(doc []byte, c *Config) { m.records[string(doc)] = *c }

// TestConfigMemoReadsAsParsed: for every run directory of the repository
// that has a config.yaml (testdata/malformed's damaged ones included),
// ReadSidecarsMemo gives what ReadSidecars gives, warnings included, both
// when its memo is empty and when it answers from what it recorded; a
// document read with warnings is not recorded (its warnings are said
// again next time).
func TestConfigMemoReadsAsParsed(t *testing.T) {
	var dirs []string
	filepath.WalkDir(filepath.Join("..", ".."), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "config.yaml" {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if len(dirs) < 10 {
		t.Fatalf("%d run directories with a config.yaml; the test needs the repository's testdata", len(dirs))
	}
	memo := &mapMemo{records: map[string]Config{}}
	warned := 0
	for _, dir := range dirs {
		info, side, warnings := ReadSidecars(context.Background(), dir, core.RunInfo{})
		for pass := range 2 {
			gotInfo, gotSide, gotWarnings := ReadSidecarsMemo(context.Background(), dir, core.RunInfo{}, memo)
			if !reflect.DeepEqual(gotInfo, info) || !reflect.DeepEqual(withoutIndex(gotSide), withoutIndex(side)) || !reflect.DeepEqual(gotWarnings, warnings) {
				t.Errorf("%s, pass %d: through the memo %+v %+v %q; parsed %+v %+v %q", dir, pass, gotInfo, gotSide.Config, gotWarnings,
					info, side.Config, warnings)
			}
		}
		b, _ := os.ReadFile(filepath.Join(dir, "config.yaml"))
		_, recorded := memo.records[string(b)]
		configWarned := false
		for _, w := range warnings {
			configWarned = configWarned || filepath.Base(firstWord(w)) == "config.yaml:"
		}
		if configWarned && recorded {
			t.Errorf("%s: a config read with warnings was recorded", dir)
		}
		if configWarned {
			warned++
		}
		if side.Config != nil && !configWarned && !recorded {
			t.Errorf("%s: a config read without warnings was not recorded", dir)
		}
	}
	if memo.hits == 0 || warned == 0 {
		t.Errorf("%d memo hits, %d configs with warnings: the test needs both", memo.hits, warned)
	}
}

// withoutIndex is s with its SampleIndex's exported fields only (two
// reads of one sample_idx_map.json are not deeply equal: its lookup
// table and the build behind it are its own each time).
func withoutIndex(s Sidecars) Sidecars {
	if si := s.SampleIndex; si != nil {
		s.SampleIndex = &SampleIndex{MaxIndex: si.MaxIndex, Phases: si.Phases, Performance: si.Performance}
	}
	return s
}

// firstWord is w up to its first space.
func firstWord(w string) string {
	for i := range len(w) {
		if w[i] == ' ' {
			return w[:i]
		}
	}
	return w
}
