package htmlpage_test

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
	"github.com/steadysweep/steadysweep/corpora/sharedtest"
	"github.com/steadysweep/steadysweep/sinks/sinkstest"
)

// parityRun is the directory of the shared parity run name, skipping the
// test when ../shared is absent.
func parityRun(t testing.TB, name string) string {
	t.Helper()
	return filepath.Join(sharedtest.Dir(t, "parity/runs"), "parity", "runs", name)
}

// analyzeDir analyses the endpoints run in dir with whitespace-word token
// counts (the parity corpus's counter) under params.
func analyzeDir(t testing.TB, dir string, params core.Params) *core.Result {
	t.Helper()
	run, d := sinkstest.DecodeEvents(t, dir)
	r, err := core.NewRun(&d.Samples, run.Info).Analyze(params)
	if err != nil {
		t.Fatalf("analyze %s: %v", dir, err)
	}
	return r
}

// urlAttr matches every src, href, xlink:href and action attribute.
var urlAttr = regexp.MustCompile(`(?i)\s(?:src|href|xlink:href|action|srcset|poster|data)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)`)

// externalURLs returns the src/href-like attribute values of page that
// are not a fragment or a relative file path: a scheme (http:, data:,
// file:, javascript:), a protocol-relative //host or an absolute /path.
// CSS url(…) and @import count too.
func externalURLs(page []byte) []string {
	var bad []string
	for _, m := range urlAttr.FindAllSubmatch(page, -1) {
		v := strings.Trim(string(m[1]), `"'`)
		if strings.HasPrefix(v, "#") {
			continue
		}
		if strings.Contains(v, ":") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, `\`) {
			bad = append(bad, v)
		}
	}
	for _, pat := range []string{"url(", "@import"} {
		if bytes.Contains(page, []byte(pat)) {
			bad = append(bad, pat)
		}
	}
	return bad
}

// count is the number of non-overlapping occurrences of re in s.
func countMatches(s []byte, re string) int { return len(regexp.MustCompile(re).FindAllIndex(s, -1)) }

// figure returns the <figure id="chart-ID"> element of page (nil when
// absent).
func figure(page []byte, id string) []byte {
	open := []byte(`<figure class="chart" id="chart-` + id + `"`)
	i := bytes.Index(page, open)
	if i < 0 {
		return nil
	}
	j := bytes.Index(page[i:], []byte("</figure>"))
	if j < 0 {
		return nil
	}
	return page[i : i+j]
}
