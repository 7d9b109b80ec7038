package htmlpage

import "strings"

// certificationTable is the result's per-metric certification (issue 28,
// core/certify.go) as the JSON's certification block has it: one row per
// metric family with its state, the span that decided, its rate in
// percent per 10 minutes and the reason it is not certified. A rising or
// falling family is marked; its steady values are null in the JSON and
// n/a with this reason in the steady table (certReason). Empty when the
// tree has no certification (the reference's, or an older record).
func certificationTable(res node) table {
	c := get(res, "certification")
	fams := object(get(c, "metrics"))
	t := table{ID: "certification", Caption: "per-metric certification",
		Head: []string{"metric", "state", "span", "%/10 min", "reason"}}
	if len(fams) == 0 {
		return t
	}
	if b := stringAt(c, "basis"); b != "" {
		t.Caption += " (" + b + ")"
	}
	t.Note = "a rising or falling metric has no steady value: the window was chosen on TPOT and this metric trends in or after it"
	for _, f := range fams {
		state := stringAt(f.Value, "state")
		class := ""
		if trending(state) {
			class = "warn"
		}
		rate := value{}
		if x, ok := number(get(f.Value, "pct_per_10min")); ok {
			rate = signedPct(x)
		}
		reason := stringAt(f.Value, "reason")
		t.Rows = append(t.Rows, []cell{tcell(f.Key), {Value: text(orNA(state)), Class: class},
			vcell(value{Text: stringAt(f.Value, "span")}), {Value: rate, Class: "num"}, vcell(value{Text: reason})})
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

// certReason is the reason the JSON's certification gives for the steady
// block key's family when that family rises or falls, else "".
func certReason(res node, key string) string {
	fam := certFamily(key)
	if fam == "" {
		return ""
	}
	m := get(res, "certification", "metrics", fam)
	if !trending(stringAt(m, "state")) {
		return ""
	}
	return stringAt(m, "reason")
}
