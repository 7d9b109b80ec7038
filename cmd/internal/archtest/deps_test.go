package archtest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// bannedFromBinary are the packages the steadysweep binary must not link:
// arrow-go's Parquet packages (pqarrow, and parquet/file, whose encoders
// import arrow/compute: its kernel registry initialises at start-up, 5 ms
// and 6,485 allocations, issue 32), arrow/compute itself, and the Arrow
// Flight, gRPC and protobuf pqarrow imports (issue 16). Their package
// initialisation cost every process, even "steadysweep version",
// megabytes of resident memory; the Parquet tables go through
// columnar/parquetio, our own codec, instead. Nor gonum/plot (issue 32):
// its root package's init parses twelve Liberation fonts at every start
// and it links go-latex, go-pdf/fpdf (encoding/gob's init), gg, freetype
// and svgo — 4 MiB of the 15 MiB "steadysweep --version" peaked at; the
// plots draw on sinks/internal/canvas, which parses its one font on
// first use.
var bannedFromBinary = []string{
	"gonum.org/v1/plot",
	"codeberg.org/go-latex/latex",
	"codeberg.org/go-pdf/fpdf",
	"git.sr.ht/~sbinet/gg",
	"github.com/golang/freetype",
	"github.com/ajstarks/svgo",
	"github.com/apache/arrow-go/v18/parquet",
	"github.com/apache/arrow-go/v18/arrow/compute",
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
	// The list is the real one: the binary writes Parquet (with our
	// codec) from our column batches.
	for _, want := range []string{module + "/columnar/parquetio", module + "/columnar/batch", module + "/sinks/internal/canvas"} {
		if !slices.Contains(deps, want) {
			t.Fatalf("go list -deps found no %s among %d packages", want, len(deps))
		}
	}
	for _, dep := range deps {
		for _, banned := range bannedFromBinary {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("cmd/steadysweep links %s", dep)
			}
		}
	}
}
