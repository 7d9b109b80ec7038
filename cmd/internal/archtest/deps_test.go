package archtest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// bannedFromBinary are the packages the steadysweep binary must not link:
// any of arrow-go (its Parquet packages import arrow/compute, whose kernel
// registry initialises at start-up, 5 ms and 6,485 allocations; even
// arrow/array alone costs 2.5 ms of CPU and 65 page faults before main:
// arrow's flatbuffers, goccy/go-json, xxh3's CPU detection; issue 32),
// and the gRPC and protobuf pqarrow imports (issue 16). The Parquet
// tables go through columnar/parquetio, our own codec, from and into
// columnar/batch, our own columns; the column cache and contract.Table
// are plain Go slices. arrow-go stays a test dependency. Nor gonum/plot (issue 32):
// its root package's init parses twelve Liberation fonts at every start
// and it links go-latex, go-pdf/fpdf (encoding/gob's init), gg, freetype
// and svgo — 4 MiB of the 15 MiB "steadysweep --version" peaked at; the
// plots draw on sinks/internal/canvas, which parses its one font on
// first use. Nor (issue 32, each an init every process paid)
// klauspost/cpuid (~50 CPUID instructions, each a hypervisor trap on a
// VM; internal/third_party/xxh3 reads golang.org/x/sys/cpu), klauspost's gzip and
// flate (42 KB of encoder tables; logs are read with compress/gzip), or
// golang.org/x/text (sfnt's Macintosh Roman; internal/third_party/image), nor
// net/url (it links net/netip, whose init makes unique handles; the
// endpoint label parses its URL host in columnar/sidecar) or html (its
// init builds an entity replacer; and html/template below it, whose
// inits parse its escaper tables; the SVG text and pages escape
// themselves). Nor (issue 32, inits) crypto/rand (zstd's and s2's
// padding bytes come from math/rand/v2: internal/third_party/compress),
// flag (pflag's bridge to it is left out: internal/third_party/pflag) or
// log (the sweep's debug lines write themselves: sweep/debug_log.go), nor
// regexp (its inits and unicode's category and script tables below them;
// the YAML float forms, part-file and suite names and the HTTP status in
// an error message are matched by hand, each tested against its regexp),
// nor crypto at all: crypto/sha256 links the FIPS module's DRBG, AES,
// GCM, HMAC, SHA-3 and SHA-512 and their inits; SHA-256 is
// internal/sha256, a copy of the standard library's (assembly included);
// nor golang.org/x/sys/cpu (its init ran CPUID and parsed GODEBUG; the
// features come from internal/third_party/cpuid, detected on first use),
// nor runtime/metrics (its init describes every GODEBUG counter, 95
// allocations and the costliest init of --version; the decode's memory
// limit reads runtime.ReadMemStats: cmd/steadysweep/load.go), nor
// golang.org/x/sys/unix (its init builds an mremap mapper and its map;
// the terminal's two ioctls go through package syscall:
// cmd/steadysweep/terminal_unix.go) or klauspost's snappy wrapper (its
// init copies s2's error values; Parquet pages call s2's Snappy
// functions, the same ones it wraps).
var bannedFromBinary = []string{
	"golang.org/x/sys/unix",
	"github.com/klauspost/compress/snappy",
	"runtime/metrics",
	"golang.org/x/sys/cpu",
	"crypto",
	"regexp",
	"crypto/rand",
	"flag",
	"log",
	"net/url",
	"net/netip",
	"html",
	"github.com/klauspost/cpuid",
	"github.com/klauspost/compress/flate",
	"github.com/klauspost/compress/gzip",
	"golang.org/x/text",
	"gonum.org/v1/plot",
	"codeberg.org/go-latex/latex",
	"codeberg.org/go-pdf/fpdf",
	"git.sr.ht/~sbinet/gg",
	"github.com/golang/freetype",
	"github.com/ajstarks/svgo",
	"github.com/apache/arrow-go",
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
