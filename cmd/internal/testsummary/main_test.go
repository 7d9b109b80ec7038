package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummarise runs go test -json on a throwaway module with a passing,
// a skipped and a failing test (and a skipped subtest) and reads the
// stream: the failing test's output and the package's FAIL line are
// printed, the passing test's log is not, and the summary names both
// skips with the reasons the tests gave.
func TestSummarise(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/probe\n\ngo 1.22\n",
		"probe_test.go": `package probe

import "testing"

func TestPasses(t *testing.T) { t.Log("quiet when passing") }
func TestSkips(t *testing.T)  { t.Skip("needs a browser") }
func TestFails(t *testing.T)  { t.Error("seven is not eight") }
func TestParent(t *testing.T) {
	t.Run("child", func(t *testing.T) { t.Skipf("no %s here", "GPU") })
}
`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-json", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	stream, err := cmd.Output()
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("go test -json: %v (want exit 1 for the failing test)", err)
	}
	var out bytes.Buffer
	failed, err := summarise(bytes.NewReader(stream), &out)
	if err != nil || !failed {
		t.Fatalf("summarise: failed %v, err %v; want a failure", failed, err)
	}
	got := out.String()
	for _, want := range []string{
		"--- FAIL: TestFails",
		"probe_test.go:7: seven is not eight",
		"FAIL\texample.com/probe",
		"2 tests skipped:\n",
		"  example.com/probe TestParent/child: probe_test.go:9: no GPU here\n",
		"  example.com/probe TestSkips: probe_test.go:6: needs a browser\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "quiet when passing") || strings.Contains(got, "=== RUN") {
		t.Errorf("output shows what go test without -v hides:\n%s", got)
	}
}
