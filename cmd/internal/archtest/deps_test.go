package archtest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// bannedFromBinary are the packages the steadysweep binary must not link:
// pqarrow, and the Arrow Flight, gRPC and protobuf it imports. Their
// package initialisation cost every process, even "steadysweep version",
// megabytes of resident memory at start-up (issue 16); the Parquet tables
// go through columnar/parquetio instead.
var bannedFromBinary = []string{
	"github.com/apache/arrow-go/v18/parquet/pqarrow",
	"github.com/apache/arrow-go/v18/arrow/flight",
	"google.golang.org/grpc",
	"google.golang.org/protobuf",
}

// TestBinaryLinksNoFlight lists the packages cmd/steadysweep links (its
// non-test dependencies, as the go command resolves them) and fails on
// any in bannedFromBinary or below it.
func TestBinaryLinksNoFlight(t *testing.T) {
	root, module := moduleRoot(t)
	cmd := exec.Command("go", "list", "-deps", module+"/cmd/steadysweep")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	// The list is the real one: the binary writes Parquet with arrow-go.
	if !slices.Contains(deps, "github.com/apache/arrow-go/v18/parquet/file") {
		t.Fatalf("go list -deps found no parquet/file among %d packages", len(deps))
	}
	for _, dep := range deps {
		for _, banned := range bannedFromBinary {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("cmd/steadysweep links %s", dep)
			}
		}
	}
}
