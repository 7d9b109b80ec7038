package foreign

import (
	"slices"

	"github.com/steadysweep/steadysweep/columnar/contract"
)

// clearSingleTurns drops the conversation and turn of every request when
// none is past its first turn: a log of single-turn requests is not a
// multi-turn (agentic) run, whatever ids its tool gave the conversations.
func clearSingleTurns(reqs []contract.Request) {
	if slices.ContainsFunc(reqs, func(r contract.Request) bool { return r.Turn > 1 }) {
		return
	}
	for i := range reqs {
		reqs[i].Conv, reqs[i].Turn = "", -1
	}
}
