module github.com/steadysweep/steadysweep

go 1.26.0

require (
	codeberg.org/go-fonts/liberation v0.5.0
	github.com/apache/arrow-go/v18 v18.8.0
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/klauspost/compress v1.20.4
	github.com/spf13/pflag v1.1.0
	github.com/steadysweep/cpuid v0.0.0
	github.com/zeebo/xxh3 v1.1.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/image v0.30.0
	golang.org/x/sync v0.25.0
	golang.org/x/sys v0.47.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/andybalholm/brotli v1.2.3 // indirect
	github.com/apache/thrift v0.24.0 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/goccy/go-json v0.10.6 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/cpuid/v2 v2.4.0 // indirect
	github.com/pierrec/lz4/v4 v4.1.29 // indirect
	golang.org/x/exp v0.0.0-20260112195511-716be5621a96 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/text v0.41.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260526163538-3dc84a4a5aaa // indirect
	google.golang.org/grpc v1.83.2 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

// Patched copies (see each directory's README.md): package inits that
// cost every process start.
replace (
	github.com/klauspost/compress => ./internal/third_party/compress
	github.com/spf13/pflag => ./internal/third_party/pflag
	github.com/steadysweep/cpuid => ./internal/third_party/cpuid
	github.com/zeebo/xxh3 => ./internal/third_party/xxh3
	go.yaml.in/yaml/v3 => ./internal/third_party/yaml
	golang.org/x/image => ./internal/third_party/image
)
