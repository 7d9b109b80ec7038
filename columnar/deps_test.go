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
