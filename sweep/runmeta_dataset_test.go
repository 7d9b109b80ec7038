package sweep

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/tokenizer"
	"github.com/steadysweep/steadysweep/corpora"
)

// TestRunMetaDatasetSize: a row's dataset_size is the dataset's size
// where the log has one (the endpoints runs: run_meta.json's
// dataset_size, read here from the file), and null (0) for a tool that
// replays no dataset in passes: a GuideLLM row showed dataset_size 64,
// the default super-pass size (issue 26).
func TestRunMetaDatasetSize(t *testing.T) {
	arch := mixedArchive(t)
	runs, errs := corpora.Discover([]string{arch}, nil, nil)
	if len(errs) > 0 || len(runs) == 0 {
		t.Fatalf("%d runs, %v", len(runs), errs)
	}
	var meta struct {
		DatasetSize int `json:"dataset_size"`
	}
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "columnar", "testdata", "small_run", "run_meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &meta); err != nil || meta.DatasetSize <= 0 {
		t.Fatalf("small_run/run_meta.json: %v, dataset_size %d", err, meta.DatasetSize)
	}
	load := DefaultLoader(LoaderOptions{Counter: tokenizer.Words{}})
	for _, ref := range runs {
		lr, err := load(t.Context(), ref)
		if err != nil {
			t.Fatalf("%s: %v", ref.Rel, err)
		}
		got := RunMetaOf(lr).DatasetSize
		switch lr.Info.SourceFormat {
		case "endpoints":
			if got != meta.DatasetSize {
				t.Errorf("%s: dataset_size %d, run_meta.json says %d", ref.Rel, got, meta.DatasetSize)
			}
		case "endpoints-legacy":
			if got <= 0 {
				t.Errorf("%s: dataset_size %d, want the run's", ref.Rel, got)
			}
		default:
			if got != 0 {
				t.Errorf("%s (%s): dataset_size %d, want null: the tool has no dataset pass (super-pass size %s)",
					ref.Rel, lr.Info.SourceFormat, got, lr.Info.DatasetSizeSource)
			}
		}
	}
}
