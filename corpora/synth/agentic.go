package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// Agentic runs (event-log.md §7.5): a dataset of source conversations, each a
// list of client turns. Trajectories cycle through the conversations in dataset
// order (instance k of conversation C is named C, then C__repeat_k); at most
// Concurrency trajectories are active, each issuing its next turn when the
// previous answer arrived plus a tool delay. Non-final turns answer with a
// streamed bash tool call (some with text before it, some tool-call only);
// the final turn answers in text. STOP is published when a trajectory finishes
// after the last trajectory has started; later turns are untracked, and ENDED
// follows the last trajectory.

const (
	agenticSystemPrompt = "You are a software engineering agent. Use the bash tool to inspect and edit the repository, run the tests, and stop when they pass."
	agenticToolsJSON    = `[{"type":"function","function":{"name":"bash","description":"Run a shell command","parameters":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}}]`
	streamAgentic       = 8
	// toolOnlyShare is the fraction of tool-call turns whose answer has no text
	// at all (output []), so they have a TTFT but no TPOT.
	toolOnlyShare = 0.2
)

var (
	agenticRepos    = [...]string{"astropy", "django", "flask", "requests", "sympy", "pytest", "sphinx", "xarray", "matplotlib", "scikit"}
	agenticCommands = [...]string{"pytest -q tests", "grep -rn TODO src", "ls -la", "git diff", "cat setup.py", "python3 -m pytest -x", "sed -n 1,80p main.py", "git status"}
)

// agenticTurn is one client turn of the dataset.
type agenticTurn struct {
	userWords, toolWords int
	command              int
	toolOnly             bool
}

type agenticConversation struct {
	name  string
	first int // dataset index of its first turn
	turns []agenticTurn
}

// trajectory is one started instance of a conversation.
type trajectory struct {
	conv     int
	id       string
	nextTurn int // 0-based index of the next turn to issue
}

type agenticState struct {
	convs    []agenticConversation
	trajs    []trajectory
	total    int // trajectories to issue
	finished int

	toolCallOutputs, timeouts, skipped int
}

func (s Spec) trajectories() int { return max(1, int(math.Round(s.Passes*float64(s.Conversations)))) }

// prepareAgentic builds the conversation dataset of an agentic spec and sets
// DatasetSize to its number of client turns (N for agentic super-passes).
func prepareAgentic(spec Spec) (*agenticState, Spec, error) {
	if spec.Mode != ModeAgentic {
		return nil, spec, nil
	}
	if spec.Conversations < 1 || spec.MaxTurns < 2 {
		return nil, spec, fmt.Errorf("synth: agentic needs Conversations >= 1 (%d) and MaxTurns >= 2 (%d)", spec.Conversations, spec.MaxTurns)
	}
	rng := rand.New(rand.NewPCG(spec.Seed, streamAgentic))
	a := &agenticState{total: spec.trajectories()}
	names := map[string]bool{}
	turns := 0
	for c := 0; c < spec.Conversations; c++ {
		var name string
		for name == "" || names[name] {
			name = agenticRepos[rng.IntN(len(agenticRepos))] + "__" + agenticRepos[rng.IntN(len(agenticRepos))] + "-" + strconv.Itoa(1000+rng.IntN(9000))
		}
		names[name] = true
		conv := agenticConversation{name: name, first: turns}
		for k := 2 + rng.IntN(spec.MaxTurns-1); k > 0; k-- {
			conv.turns = append(conv.turns, agenticTurn{
				userWords: 6 + rng.IntN(20),
				toolWords: 4 + rng.IntN(14),
				command:   rng.IntN(len(agenticCommands)),
				toolOnly:  rng.Float64() < toolOnlyShare,
			})
		}
		turns += len(conv.turns)
		a.convs = append(a.convs, conv)
	}
	spec.DatasetSize = turns
	return a, spec, nil
}

func (a *agenticState) truth() *AgenticTruth {
	turns := 0
	for _, c := range a.convs {
		turns += len(c.turns)
	}
	return &AgenticTruth{Conversations: len(a.convs), DatasetTurns: turns, Trajectories: a.total, TrajectoriesStarted: len(a.trajs)}
}

// start launches the first Concurrency trajectories microseconds apart.
func (a *agenticState) start(s *sim) {
	s.planned = math.MaxInt // agentic issues are bounded by trajectories, not a count
	at := 20e3
	for i := 0; i < min(s.spec.Concurrency, a.total); i++ {
		a.startTrajectory(s, at)
		at += 5e3 + 20e3*s.timing.Float64()
	}
}

func (a *agenticState) startTrajectory(s *sim, at float64) {
	i := len(a.trajs)
	conv := i % len(a.convs)
	id := a.convs[conv].name
	if rep := i / len(a.convs); rep > 0 {
		id += "__repeat_" + strconv.Itoa(rep)
	}
	a.trajs = append(a.trajs, trajectory{conv: conv, id: id})
	a.scheduleTurn(s, int32(i), at)
}

func (a *agenticState) scheduleTurn(s *sim, traj int32, at float64) {
	id := s.newRequest(-1)
	s.reqs[id].traj = traj
	s.schedule(at, evIssue, id)
}

// prepareTurn fills in the request's turn and dataset index when it is issued.
func (a *agenticState) prepareTurn(s *sim, id int32) {
	r := &s.reqs[id]
	t := &a.trajs[r.traj]
	r.turn = int32(t.nextTurn + 1)
	r.dataset = int32(a.convs[t.conv].first + t.nextTurn)
	t.nextTurn++
}

func (a *agenticState) turnOf(s *sim, id int32) (agenticConversation, agenticTurn, bool) {
	r := &s.reqs[id]
	conv := a.convs[a.trajs[r.traj].conv]
	k := int(r.turn) - 1
	return conv, conv.turns[k], k == len(conv.turns)-1
}

// outputWords is the planted answer length of a turn: short tool-call turns,
// a longer final answer.
func (a *agenticState) outputWords(s *sim, id int32) float64 {
	_, _, last := a.turnOf(s, id)
	w := float64(s.spec.OutputWords) * (0.7 + 0.6*s.timing.Float64())
	if !last {
		w *= 0.5
	}
	return w
}

// turnDone continues the trajectory after a tool delay, or ends it and starts
// the next one. The first trajectory to finish after the last one started
// publishes STOP; the last to finish ends the session.
func (a *agenticState) turnDone(s *sim, id int32) {
	r := &s.reqs[id]
	t := &a.trajs[r.traj]
	conv := a.convs[t.conv]
	gap := 8e3 + 32e3*s.timing.Float64()
	if r.fail == failNone && t.nextTurn < len(conv.turns) {
		delay := s.timing.ExpFloat64() * s.spec.ToolDelayS * 1e9
		a.scheduleTurn(s, r.traj, s.now+gap+delay)
		return
	}
	if r.fail != failNone {
		failed := r.uuid
		for t.nextTurn < len(conv.turns) {
			a.skipTurn(s, r.traj, failed)
		}
	}
	a.finished++
	if len(a.trajs) < a.total {
		a.startTrajectory(s, s.now+gap)
		return
	}
	if !s.stopWritten {
		s.writeStop()
	}
	if a.finished == len(a.trajs) && !s.endScheduled {
		s.endScheduled = true
		s.schedule(s.now+50e6+100e6*s.timing.Float64(), evEnd, -1)
	}
}

func (a *agenticState) conversationID(traj int32) string {
	if traj < 0 || int(traj) >= len(a.trajs) {
		return ""
	}
	return a.trajs[traj].id
}

// appendPromptData appends the PromptData of a turn: messages (system, the
// first user message, then an assistant tool call and its tool result per
// earlier turn) and the bash tool.
func (a *agenticState) appendPromptData(s *sim, b []byte, id int32) []byte {
	r := &s.reqs[id]
	conv := a.convs[a.trajs[r.traj].conv]
	b = append(b, `["PromptData",null,null,[{"role":"system","content":`...)
	b = appendJSONString(b, agenticSystemPrompt)
	b = append(b, `},{"role":"user","content":"`...)
	turnRNG := func(k int) *rand.Rand {
		return rand.New(rand.NewPCG(s.spec.Seed^promptSalt, uint64(conv.first+k)<<8|streamAgentic))
	}
	b = appendSentence(b, turnRNG(0), conv.turns[0].userWords)
	b = append(b, `"}`...)
	for k := 0; k < int(r.turn)-1; k++ {
		callID := "call_" + strconv.Itoa(k+1)
		b = append(b, `,{"role":"assistant","content":"","tool_calls":[{"id":"`...)
		b = append(b, callID...)
		b = append(b, `","type":"function","function":{"name":"bash","arguments":`...)
		b = appendJSONString(b, `{"command": "`+agenticCommands[conv.turns[k].command]+`"}`)
		b = append(b, `}}]},{"role":"tool","tool_call_id":"`...)
		b = append(b, callID...)
		b = append(b, `","content":"`...)
		b = appendSentence(b, turnRNG(k+1), conv.turns[k].toolWords)
		b = append(b, `"}`...)
	}
	b = append(b, "],"...)
	b = append(b, agenticToolsJSON...)
	return append(b, ",null,null,null]"...)
}

// appendOutput appends a turn's TextModelOutput and returns its finish reason:
// "tool_calls" for non-final turns (streamed tool-call deltas, with the text
// before the call or none), "" (stop/length) for the final text answer.
func (a *agenticState) appendOutput(s *sim, b []byte, id int32, rng *rand.Rand) ([]byte, string) {
	r := &s.reqs[id]
	_, turn, last := a.turnOf(s, id)
	if last {
		b = appendStreamedOutput(b, rng, int(r.tokens))
		return append(b, ",null,null]"...), ""
	}
	a.toolCallOutputs++
	if turn.toolOnly {
		b = append(b, `["TextModelOutput",[]`...)
	} else {
		b = appendStreamedOutput(b, rng, int(r.tokens))
	}
	cmd := agenticCommands[turn.command]
	cut := len(cmd) / 2
	b = append(b, `,null,[[{"index":0,"id":"call_`...)
	b = appendHex(b, rng.Uint32())
	b = append(b, `","type":"function","function":{"name":"bash","arguments":""}}],[{"index":0,"function":{"arguments":`...)
	b = appendJSONString(b, `{"command": "`+cmd[:cut])
	b = append(b, `}}],[{"index":0,"function":{"arguments":`...)
	b = appendJSONString(b, cmd[cut:]+`"}`)
	b = append(b, `}}]]]`...)
	return b, "tool_calls"
}

// hasText reports whether the request's answer carries streamed text (tool-call
// only agentic turns do not, so they have no TPOT).
func (a *agenticState) hasText(s *sim, id int32) bool {
	_, turn, last := a.turnOf(s, id)
	return last || !turn.toolOnly
}

func appendHex(b []byte, v uint32) []byte {
	const digits = "0123456789abcdef"
	for i := 28; i >= 0; i -= 4 {
		b = append(b, digits[(v>>uint(i))&0xf])
	}
	return b
}

// skipTurn registers the next turn of a trajectory whose earlier turn failed,
// as upstream's register_skipped does: an ISSUED line with an all-null
// PromptData, then a synthetic error.generic (TurnAbortedByPriorFailure) and a
// sample.complete with null data and no worker_id. Nothing is sent to the
// server.
func (a *agenticState) skipTurn(s *sim, traj int32, failed [32]byte) {
	id := s.newRequest(-1)
	r := &s.reqs[id]
	r.traj = traj
	s.newUUID(&r.uuid)
	pos := len(s.reqs) - 1
	if s.tracking {
		pos = s.issued
		r.track = int32(pos)
		s.issued++
	}
	a.prepareTurn(s, id)
	r.fail = failSkipped
	r.planted = s.plantedLevel(pos)
	r.issueNs = s.ts(s.now)
	conv := a.trajs[traj].id
	lw := s.lw
	lw.begin(topicIssued, r.issueNs, r.uuid[:], conv, int(r.turn))
	lw.buf = append(lw.buf, `["PromptData",null,null,null,null,null,null,null]`...)
	lw.finish("", -1)
	lw.begin(topicErrorGeneric, r.issueNs+7000, r.uuid[:], conv, int(r.turn))
	lw.buf = append(lw.buf, `["ErrorData","TurnAbortedByPriorFailure",`...)
	lw.buf = appendJSONString(lw.buf, "prior turn failed (query="+string(failed[:])+")")
	lw.buf = append(lw.buf, ']')
	lw.finish("", -1)
	r.completeNs = r.issueNs + 7000
	r.completed = true
	lw.begin(topicComplete, r.completeNs, r.uuid[:], conv, int(r.turn))
	lw.buf = append(lw.buf, "null"...)
	lw.finish("", -1)
	a.skipped++
}
