package htmlpage

import (
	"strings"

	"github.com/steadysweep/steadysweep/sinks/resultjson"
)

// certificationTable is the result's per-metric certification (issue 28,
// core/certify.go) as the JSON's certification block has it: one row per
// metric family with its state, the span that decided, its rate in
// percent per 10 minutes and the reason it is not certified. A rising or
// falling family is marked; its steady values are null in the JSON and
// n/a with this reason in the steady table (certReason). Empty when the
// record has no certification (the reference's, or an older record).
func certificationTable(res *resultjson.Record) table {
	t := table{ID: "certification", Caption: "per-metric certification",
		Head: []string{"metric", "state", "span", "%/10 min", "reason"}}
	as := res.Assessment()
	if as == nil || as.Certification == nil || len(as.Certification.Metrics) == 0 {
		return t
	}
	c := as.Certification
	if c.Basis != "" {
		t.Caption += " (" + c.Basis + ")"
	}
	t.Note = "a rising or falling metric has no steady value: the window was chosen on TPOT and this metric trends in or after it"
	for _, m := range c.Metrics {
		state := string(m.State)
		class := ""
		if trending(state) {
			class = "warn"
		}
		rate := value{}
		if finite(m.PctPer10Min) {
			rate = signedPct(m.PctPer10Min)
		}
		t.Rows = append(t.Rows, []cell{tcell(m.Family), {Value: text(orNA(state)), Class: class},
			vcell(value{Text: m.Span}), {Value: rate, Class: "num"}, vcell(value{Text: m.Reason})})
	}
	return t
}

func trending(state string) bool { return state == "rising" || state == "falling" }

// certFamily is the certification family of a steady block key
// (ttft_ns → ttft), "" for a key no family covers.
func certFamily(key string) string {
	switch key {
	case "ttft_ns", "tpot_ns", "latency_ns":
		return strings.TrimSuffix(key, "_ns")
	case "tps_per_user", "tps_system":
		return key
	}
	return ""
}

// certReason is the reason the record's certification gives for the
// steady block key's family when that family rises or falls, else "".
func certReason(res *resultjson.Record, key string) string {
	fam, as := certFamily(key), res.Assessment()
	if fam == "" || as == nil || as.Certification == nil {
		return ""
	}
	for _, m := range as.Certification.Metrics {
		if m.Family == fam {
			if !trending(string(m.State)) {
				return ""
			}
			return m.Reason
		}
	}
	return ""
}
