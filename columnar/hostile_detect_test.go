package columnar

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// TestDetectBeyondHead is issue 30's "a valid GuideLLM report whose args
// exceed the 256 KiB sniff head is 'unknown log format' and the sweep
// drops it without a row": detection streams the first object's keys
// (values skipped) until they decide, and a file still undecided at the
// bound says so (Undecided, "undecided within N KiB"), and is listed by
// ForeignLogsAmong for a row of its own.
func TestDetectBeyondHead(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("x", 300<<10)
	report := writeTemp(t, dir, "report.json", `{"args": {"data": "`+big+`"}, "benchmarks": []}`)
	if f, err := DetectFile(report); err != nil || f != contract.FormatGuideLLM {
		t.Fatalf("GuideLLM report with 300 KiB of args: %q, %v", f, err)
	}
	huge := strings.Repeat("y", longSniffSize)
	undecided := writeTemp(t, dir, "huge.json", `{"blob": "`+huge+`", "benchmarks": []}`)
	_, err := DetectFile(undecided)
	var u *UnknownFormatError
	if !errors.As(err, &u) || !u.Undecided || !strings.Contains(err.Error(), "undecided within 16384 KiB") {
		t.Fatalf("16 MiB first value: %v", err)
	}
	notLog := writeTemp(t, dir, "tokenizer.json", `{"version": "`+big+`", "model": {}}`)
	if _, err := DetectFile(notLog); !errors.As(err, &u) || u.Undecided || !strings.Contains(err.Error(), `keys "version", "model"`) {
		t.Fatalf("a whole non-log object past the head: %v", err)
	}
	paths, formats := ForeignLogsAmong(dir, []string{"huge.json", "report.json", "tokenizer.json"})
	if len(paths) != 2 || paths[0] != filepath.Join(dir, "huge.json") || formats[0] != "" || formats[1] != contract.FormatGuideLLM {
		t.Fatalf("ForeignLogsAmong: %q %q", paths, formats)
	}
	if p, _ := ForeignLogs(dir); len(p) != 1 {
		t.Fatalf("ForeignLogs (ResolveRun's) keeps the undecided file out: %q", p)
	}
	os.Remove(undecided)
}
