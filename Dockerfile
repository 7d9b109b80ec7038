# The steadysweep image that examples/k8s-indexed-job.yaml runs. Build it
# from the repository root:
#
#   docker build -t steadysweep:latest \
#     --build-arg VERSION="$(git describe --tags --always --dirty)" \
#     --build-arg COMMIT="$(git rev-parse --short HEAD)" .
#
# Stage 1 builds a static binary (CGO_ENABLED=0: nothing from libc at run
# time). cmd/steadysweep's tests build their binary from this file's
# `go build` line, flags and all, and run it, so a change here is tested.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
# go.mod replaces some modules with patched copies in internal/third_party/
# (see their README.md files): go mod download needs them in place.
COPY internal/third_party ./internal/third_party
RUN go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=unknown
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" \
      -o /out/steadysweep ./cmd/steadysweep

# Stage 2: the binary alone on a static base, run as a non-root user
# (uid 65532). The column cache goes to XDG_CACHE_HOME: mount a volume
# there (the Kubernetes example points it at the output volume).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/steadysweep /usr/local/bin/steadysweep
ENV XDG_CACHE_HOME=/tmp/cache
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/steadysweep"]
CMD ["--help"]
