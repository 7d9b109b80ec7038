package cache

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// TestSummaryFormCoversEveryField: the summary form writes summaryFields
// fields of contract.Summary, 4 of ProblemCount (First is rebuilt) and 4
// of core.EventAnomaly; a field added to any of them must be added to the
// form (and entryVersion bumped), not dropped from every cached run.
func TestSummaryFormCoversEveryField(t *testing.T) {
	written := map[reflect.Type]int{
		reflect.TypeFor[contract.Summary]():      summaryFields,
		reflect.TypeFor[contract.ProblemCount](): 5,
		reflect.TypeFor[core.EventAnomaly]():     4,
	}
	for typ, n := range written {
		if got := typ.NumField(); got != n {
			t.Errorf("%v has %d fields, the summary form %d: extend appendSummary and decodeSummary", typ, got, n)
		}
	}
}

// plantedSummary sets every field of a Summary the form stores, each to
// a value of its own.
func plantedSummary() contract.Summary {
	return contract.Summary{
		File: "/runs/ü/events.jsonl", Bytes: 185000445, Lines: -3,
		Events: map[string]int64{"sample.issued": 52004, "session.ended": 1, "other": 0},
		Problems: []contract.ProblemCount{
			{Kind: "bad_json", Count: 7, FirstLines: []int{3, 9}, FirstFields: []string{"", "data"}},
			{Kind: "long_line", Count: 1, FirstLines: []int{}, FirstFields: nil},
		},
		Truncated: true, TruncatedReason: "no session.ended",
		TrackingStartNs: 81234567890124, TrackingStopNs: -1, TrackingWindows: 2,
		Mode: "streaming", Samples: 52004, Completed: 51972, Failed: 5, Pending: 32, Retries: 4,
		Counter: `hf:"quoted"`, TokenizeSample: 16, SuperPassSize: 1000,
		EventAnomalies: []core.EventAnomaly{{Kind: "complete_before_issue", Count: 2, FirstLine: 40, Samples: []int{1, 5}}, {Kind: "x"}},
	}
}

// TestSummaryFormRoundTrip: a planted summary, one with every slice and
// map nil, and one with them empty read back equal (nil and empty kept
// apart); and equal to what the JSON the entry held before read back.
func TestSummaryFormRoundTrip(t *testing.T) {
	empty := contract.Summary{Events: map[string]int64{}, Problems: []contract.ProblemCount{}, EventAnomalies: []core.EventAnomaly{}}
	for name, want := range map[string]contract.Summary{"planted": plantedSummary(), "zero": {}, "empty": empty} {
		var got contract.Summary
		if err := decodeSummary(appendSummary(nil, &want), &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back %+v, want %+v", name, got, want)
		}
	}
	// The JSON the entry held before (entry version 1) reads the planted
	// summary back to the same values.
	want := plantedSummary()
	js, err := json.Marshal(&want)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON, fromForm contract.Summary
	if err := json.Unmarshal(js, &fromJSON); err != nil {
		t.Fatal(err)
	}
	if err := decodeSummary(appendSummary(nil, &want), &fromForm); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromForm, fromJSON) {
		t.Errorf("form %+v, JSON %+v", fromForm, fromJSON)
	}
}

// TestSummaryFormDamaged: every cut of an encoded summary, and one with
// bytes after it, is an error, never a panic; so are lengths past the end.
func TestSummaryFormDamaged(t *testing.T) {
	s := plantedSummary()
	b := appendSummary(nil, &s)
	for n := range len(b) {
		var got contract.Summary
		if err := decodeSummary(b[:n], &got); err == nil {
			t.Errorf("cut at %d of %d: read without an error", n, len(b))
		}
	}
	var got contract.Summary
	if err := decodeSummary(append(b, 0), &got); err == nil {
		t.Error("a trailing byte: read without an error")
	}
	huge := append([]byte(summaryMagic), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f)
	if err := decodeSummary(huge, &got); err == nil {
		t.Error("a string of 2⁶³ bytes: read without an error")
	}
}
