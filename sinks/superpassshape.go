package sinks

import "fmt"

// SuperPassShape says how a run's samples fill its super-passes, the one
// phrase the text report and the run page print: nSP super-passes of S
// samples (the whole run's count, JSON total.n_super_passes) holding
// nSamples samples (total.n_samples). When nSamples is not a multiple of
// S the last super-pass is partial: the phrase gives its samples, and says
// it is left out of the analysis when analysed (the analysed series'
// length, JSON n_super_passes) is shorter than nSP. nSamples ≤ 0 (not
// known) gives the count alone.
//
//	8 super-passes of 125 samples
//	2 super-passes of 64 samples, the last partial (36 samples, not analysed)
//	1 partial super-pass (30 of 64 samples)
func SuperPassShape(nSP, analysed, nSamples, S int) string {
	plain := Count(nSP, "super-pass") + " of " + Count(S, "sample")
	if nSP < 1 || S < 1 || nSamples <= 0 {
		return plain
	}
	last := nSamples - (nSP-1)*S
	if last <= 0 || last >= S {
		return plain
	}
	if nSP == 1 {
		return fmt.Sprintf("1 partial super-pass (%d of %s)", last, Count(S, "sample"))
	}
	note := ""
	if analysed < nSP {
		note = ", not analysed"
	}
	return fmt.Sprintf("%s, the last partial (%s%s)", plain, Count(last, "sample"), note)
}
