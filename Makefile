# steadysweep — see README.md. Only Go is needed.
GO      ?= go
BIN     := bin/steadysweep
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
FUZZTIME ?= 10s

.PHONY: build test docker-check demo bench accuracy lint fuzz fuzz-smoke html-check html-screenshots clean

# pipefail: make test's status is go test's, not its summariser's.
SHELL := /bin/bash
# go test's own default is 10 minutes per package binary; cmd/steadysweep
# takes several on a loaded 2-core machine, so make test says how long it
# may take rather than inheriting that.
TEST_TIMEOUT ?= 45m

# CGO_ENABLED=0, as the Dockerfile: pflag imports net, whose cgo resolver
# would make the binary dynamic (ld.so and libc at every start: +1.8 MiB
# peak and ~100 more page faults for steadysweep --version; bench/RESULTS.md
# §8). Nothing of steadysweep uses cgo.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/steadysweep

# The suite, as go test prints it without -v, then one line per skipped
# test with its reason (cmd/internal/testsummary reads go test -json).
test:
	set -o pipefail; $(GO) test -timeout $(TEST_TIMEOUT) -json ./... | $(GO) run ./cmd/internal/testsummary

# The Dockerfile's own build line (CGO_ENABLED=0 -trimpath: a cold build of
# every package, minutes on a small machine), run and checked static by
# TestDockerfileBuild; make test leaves it to this target, which CI runs.
docker-check:
	STEADYSWEEP_DOCKERFILE_BUILD=1 $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -run '^TestDockerfileBuild$$' ./cmd/steadysweep/

# The first hour on an embedded default: synthesize runs with planted truth,
# analyse one (report and plot), sweep them over a small grid, calibrate the
# configs against the truth and recommend one.
demo: build
	./$(BIN) demo --out demo-out

# Every benchmark, ending with the summary of issue 32's targets (also
# printed on the terminal). BENCHFLAGS go last, so they override:
#   make bench BENCHFLAGS="-quick -o /tmp/bench.md"    # a check of the harness
#   make bench BENCHFLAGS="-sections streamed,startup,tokcache,longrun,sweeprows,discovery -o /tmp/i32.md"
# The reference comparisons need STEADYSWEEP_REFERENCE (and STEADYSWEEP_PYTHON
# with PyYAML); without it they are skipped, with a line saying so.
BENCHFLAGS ?=
bench: build
	$(GO) run ./bench/cmd/benchall -bin $(BIN) -o bench/RESULTS.md $(BENCHFLAGS)

# Detection accuracy against planted truth: the shared accuracy set and our
# generated suite (synth.AccuracySuite, kept in accuracy-out/), our defaults
# beside --compat reference, scored by ../shared/accuracy/judge.py.
accuracy: build
	$(GO) run ./bench/cmd/accuracy -bin $(BIN) -work accuracy-out -o accuracy-out/REPORT.md

# The HTML pages in a real browser: installs Debian's chromium when it is
# missing (apt-get, as root), then loads every kind of page headless with
# networking off (TestPagesInBrowser; make test skips it without a browser,
# this target fails instead). CI (.ci/run) runs it.
# html-screenshots also rewrites the README's screenshots in docs/img.
html-check:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }
	STEADYSWEEP_REQUIRE_BROWSER=1 $(GO) test -count=1 -timeout $(TEST_TIMEOUT) -v -run '^TestPagesInBrowser$$' ./cmd/steadysweep/

html-screenshots:
	mkdir -p docs/img
	$(MAKE) html-check STEADYSWEEP_SCREENSHOTS=$(CURDIR)/docs/img

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Mutation fuzzing of every fuzz target (FUZZTIME each); CI runs fuzz-smoke.
# Keep each finding as a seed in the target's testdata/fuzz (make test replays it).
fuzz:
	@for t in $$($(GO) test -list 'Fuzz.*' ./... 2>/dev/null | awk '/^Fuzz/{print $$1}' | sort -u); do \
	  pkg=$$(grep -rl "func $$t(" --include='*_test.go' . | head -1 | xargs dirname); \
	  echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

# A count, not a duration: a timed run can end in the fuzzer's own "context
# deadline exceeded" when a worker is mid-input at the deadline.
fuzz-smoke:
	$(MAKE) fuzz FUZZTIME=300x

clean:
	rm -rf bin demo-out accuracy-out
