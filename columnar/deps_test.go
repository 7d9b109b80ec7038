package columnar

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoParquetInTheReadPath: reading runs must not link the Parquet
// writer and what it pulls in (arrow/compute's kernels, Arrow Flight,
// gRPC, protobuf): in a binary they cost megabytes of resident pages at
// start-up. Export lives in columnar/samplesparquet.
func TestNoParquetInTheReadPath(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"arrow-go/v18/parquet", "arrow-go/v18/arrow/flight", "arrow-go/v18/arrow/compute", "google.golang.org/grpc", "google.golang.org/protobuf"} {
			if strings.Contains(dep, banned) {
				t.Errorf("columnar depends on %s", dep)
			}
		}
	}
}

// TestNoArrowInTablesOrCache: the per-sample Table (columnar/contract)
// is plain slices and the column cache (columnar/cache) writes and maps
// entries of its own layout, so neither links arrow-go, whose package
// initialisation every start of the binary paid (issue 32).
func TestNoArrowInTablesOrCache(t *testing.T) {
	for _, q := range []struct{ pkg, format string }{
		{"./contract", `{{join .Deps "\n"}}`},
		{"./cache", `{{join .Deps "\n"}}`},
	} {
		out, err := exec.Command("go", "list", "-f", q.format, q.pkg).Output()
		if err != nil {
			t.Skipf("go list: %v", err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.Contains(dep, "github.com/apache/arrow-go") {
				t.Errorf("columnar/%s depends on %s", strings.TrimPrefix(q.pkg, "./"), dep)
			}
		}
	}
}
