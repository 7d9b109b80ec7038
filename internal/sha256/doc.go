// Package sha256 is SHA-256 (FIPS 180-4) without the standard library's
// crypto packages: New, Sum256, Size and BlockSize as crypto/sha256 has
// them.
//
// Why (issue 32): crypto/sha256 imports crypto/internal/fips140only,
// which links the FIPS module's DRBG, AES, GCM, HMAC, SHA-3 and SHA-512;
// their twelve package initialisations (GODEBUG settings, self-test
// registrations, CPU feature tables) ran in every steadysweep process,
// `steadysweep --version` included. On amd64 this package is a copy of
// Go 1.26's crypto/internal/fips140/sha256 (BSD-3-Clause, The Go
// Authors; /usr/local/go/LICENSE): the same SHA-NI and AVX2 assembly
// (sha256block_amd64.s, verbatim) and generic block function
// (sha256block.go), with the SHA-224 variant, state marshalling and FIPS
// bookkeeping left out and the CPU features read with CPUID on the first
// block (cpuid_amd64.s) instead of from internal/cpu at init. Elsewhere
// (sha256_std.go) it forwards to crypto/sha256. sha256_test.go holds it
// to crypto/sha256.
package sha256
