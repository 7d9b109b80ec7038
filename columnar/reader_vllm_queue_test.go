package columnar

import (
	"strings"
	"testing"

	"github.com/steadysweep/steadysweep/core"
)

// TestVLLMQueueTimes: queue_times (serve.py's client_queue_time, the wait
// for a --max-concurrency slot before the send) moves no issue time and is
// summarised over the successful requests, as serve.py's Client Queue Time
// statistics: requests 0 and 1 of vllmResult succeeded, so n 2, sum 0.75 s,
// max 0.5 s of the values written (2 and 3 failed: their 1.5 s and 0 s are
// left out).
func TestVLLMQueueTimes(t *testing.T) {
	body := strings.Replace(vllmResult, `"queue_times": [0, 0, 0, 0]`, `"queue_times": [0.5, 0.25, 1.5, 0.0]`, 1)
	tab, s := ingestPath(t, writeTemp(t, t.TempDir(), "r.json", body))
	if s.Len() != 4 || tab.Summary.ProblemTotal() != 0 || s.IssueNs[0] != 1000.25e9 || s.IssueNs[1] != 1000.5e9 {
		t.Fatalf("%d samples, issues %v, problems %s", s.Len(), s.IssueNs, warningsOf(tab))
	}
	want := core.RecordedStat{Field: "vllm queue_times", Unit: "s", N: 2, Sum: 0.75, Max: 0.5}
	if r := tab.Info.Recorded; len(r) != 1 || r[0] != want {
		t.Errorf("recorded %+v, want %+v", r, want)
	}
	// A result without queue_times (before vLLM wrote them) records none.
	tab, _ = ingestPath(t, writeTemp(t, t.TempDir(), "r.json", strings.Replace(vllmResult, `"queue_times": [0, 0, 0, 0],`, "", 1)))
	if tab.Info.Recorded != nil {
		t.Errorf("recorded %+v without queue_times", tab.Info.Recorded)
	}
}

// TestVLLMQueueTimesMalformed: a bad queue_times entry is one problem
// naming the file and the element; the samples are read.
func TestVLLMQueueTimesMalformed(t *testing.T) {
	for _, tc := range []struct{ name, to, want string }{
		{"a string", `"queue_times": [0, "x", 0, 0]`, `: queue_times[1]: unexpected field type`},
		{"negative", `"queue_times": [0, -0.5, 0, 0]`, `: queue_times[1]: unexpected field type`},
		{"infinite", `"queue_times": [0, Infinity, 0, 0]`, `: queue_times[1]: unexpected field type`},
		{"short", `"queue_times": [0, 0, 0]`, `: queue_times (3 entries, 4 expected): required field missing`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "r.json", strings.Replace(vllmResult, `"queue_times": [0, 0, 0, 0]`, tc.to, 1))
			tab, s := ingestPath(t, path)
			checkColumns(t, &s)
			if s.Len() != 4 || !strings.Contains(warningsOf(tab), path+tc.want) || tab.Summary.ProblemTotal() != 1 {
				t.Errorf("%d samples, problems %q, want %q", s.Len(), warningsOf(tab), path+tc.want)
			}
		})
	}
}
