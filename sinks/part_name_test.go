package sinks

import (
	"regexp"
	"testing"

	"github.com/steadysweep/steadysweep/internal/tokenstrings"
)

// The regular expressions parsePartName and isPublishedPart replace
// (sinks before issue 32).
var (
	partNameRE      = regexp.MustCompile(`^\.?part-(.+)-(\d+)\.parquet(\.[0-9a-z]+\.tmp)?$`)
	publishedPartRE = regexp.MustCompile(`^part-.+-\d+\.parquet$`)
)

// checkPartName holds both matchers to their regexps on name.
func checkPartName(t *testing.T, name string) {
	t.Helper()
	p, ok := parsePartName(name)
	m := partNameRE.FindStringSubmatch(name)
	if ok != (m != nil) {
		t.Fatalf("parsePartName(%q) ok=%v, regexp matched %v", name, ok, m != nil)
	}
	if ok && (p.shard != m[1] || p.seq != m[2] || p.hidden != (name[0] == '.') || p.temporary != (m[3] != "")) {
		t.Fatalf("parsePartName(%q) = %+v, regexp %q", name, p, m)
	}
	if got, want := isPublishedPart(name), publishedPartRE.MatchString(name); got != want {
		t.Fatalf("isPublishedPart(%q) = %v, regexp %v", name, got, want)
	}
}

var partNameSeeds = []string{
	"", "part-", "part-a-1.parquet", ".part-a-1.parquet", ".part-a-1.parquet.x7.tmp",
	"part-a-1.parquet.x7.tmp", "part-a-b-12.parquet", "part--1.parquet", "part-a-.parquet",
	"part-a-1.parquet.tmp", "part-a-1.parquet..tmp", "part-a-1.parquet.X.tmp", "part-a-1.parquetx",
	"part-a-1.parquet.x-2.parquet", "part-a\n-1.parquet", "part-\n-1.parquet", "part-a-1.parquet\n",
	"part-a-1.parquet.ab-c.tmp", "xpart-a-1.parquet", "..part-a-1.parquet", "part-é-3.parquet",
	"part-\xff-3.parquet", "part-a-01.parquet.0a.tmp", "part-a-1-2.parquet", "part-a-1a.parquet",
	"part-a-1.parquet.a.tmp.tmp", "part-rows-000003.parquet",
}

// TestParsePartNameMatchesRegexp: the seeds, then 200,000 names built
// from the pattern's pieces.
func TestParsePartNameMatchesRegexp(t *testing.T) {
	tokens := []string{".", "part-", "part", "-", "a", "z", "0", "9", "12", ".parquet", ".tmp", "tmp", "\n", "é", "\xff", "X", "_"}
	tokenstrings.Check(t, partNameSeeds, tokens, 200_000, 8, checkPartName)
}

func FuzzParsePartName(f *testing.F) { tokenstrings.Fuzz(f, partNameSeeds, checkPartName) }
