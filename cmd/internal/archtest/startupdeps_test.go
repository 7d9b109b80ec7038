package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// notLinked are packages whose package initialisation cost every
// steadysweep process (steadysweep --version included, issue 32) and that
// the binary no longer links: klauspost/cpuid (~50 CPUID instructions at
// init, each a hypervisor trap on a VM; xxh3 reads golang.org/x/sys/cpu,
// third_party/xxh3), klauspost's gzip and flate (42 KB of encoder tables
// at init; the reader is compress/gzip), net (only pflag's IP flags used
// it; third_party/pflag), and golang.org/x/text (sfnt's Macintosh Roman;
// third_party/image). Each is matched exactly, or as a prefix when it
// ends in "/".
var notLinked = []string{
	"github.com/klauspost/cpuid/",
	"github.com/klauspost/compress/flate",
	"github.com/klauspost/compress/gzip",
	"net",
	"golang.org/x/text/",
}

// TestBinaryStartupDeps lists the packages cmd/steadysweep links and fails
// on any in notLinked.
func TestBinaryStartupDeps(t *testing.T) {
	root, module := moduleRoot(t)
	cmd := exec.Command("go", "list", "-deps", module+"/cmd/steadysweep")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps found only %d packages", len(deps))
	}
	for _, dep := range deps {
		for _, n := range notLinked {
			if dep == n || strings.HasSuffix(n, "/") && strings.HasPrefix(dep, n) {
				t.Errorf("cmd/steadysweep links %s, whose package init every process would pay", dep)
			}
		}
	}
}
