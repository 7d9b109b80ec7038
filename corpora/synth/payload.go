package synth

import "math/rand/v2"

// Seeds salts for the per-sample text sources, so a prompt depends only on its
// dataset index and an answer only on its request.
const (
	promptSalt = 0x6a09e667f3bcc908
	answerSalt = 0xbb67ae8584caa73b
)

// Error payloads as upstream writes them (event-log.md §1.4, parity conc_failures).
const (
	httpErrorType      = "error"
	httpErrorMessage   = "HTTP 503: Service Unavailable"
	streamErrorType    = "ClientPayloadError"
	streamErrorMessage = `ClientPayloadError('Response payload is not completed: <ContentLengthError: 400, message=\'Not enough data to satisfy content length header.\'>')`
)

func (s *sim) writeIssued(id int32) {
	r := &s.reqs[id]
	r.issueNs = s.ts(s.now)
	s.writeIssuedAt(id, r.issueNs)
}

// writeIssuedAt writes an ISSUED line whose PromptData is the full 8-element
// array: a text prompt for single-turn runs, messages and tools for agentic.
func (s *sim) writeIssuedAt(id int32, ts int64) {
	r := &s.reqs[id]
	lw := s.lw
	lw.begin(topicIssued, ts, r.uuid[:], s.conversationID(id), int(r.turn))
	if s.agentic != nil {
		lw.buf = s.agentic.appendPromptData(s, lw.buf, id)
	} else {
		lw.buf = append(lw.buf, `["PromptData","`...)
		prng := rand.New(rand.NewPCG(s.spec.Seed^promptSalt, uint64(r.dataset)))
		lw.buf = appendSentence(lw.buf, prng, int(r.promptWords))
		lw.buf = append(lw.buf, `",null,null,null,null,null,null]`...)
	}
	lw.finish("", -1)
}

// writeComplete writes the request's final lines: error.generic then a COMPLETE
// with null data for failures (the error is published first but timestamped
// later, as upstream does), or a COMPLETE with TextModelOutput.
func (s *sim) writeComplete(id int32) {
	r := &s.reqs[id]
	lw := s.lw
	conv := s.conversationID(id)
	if r.fail != failNone {
		errType, errMsg := httpErrorType, httpErrorMessage
		if r.fail == failMidstream {
			errType, errMsg = streamErrorType, streamErrorMessage
		}
		lw.begin(topicErrorGeneric, r.completeNs+int64(5000+s.timing.IntN(35000)), r.uuid[:], conv, int(r.turn))
		lw.buf = append(lw.buf, `["ErrorData",`...)
		lw.buf = appendJSONString(lw.buf, errType)
		lw.buf = append(lw.buf, ',')
		lw.buf = appendJSONString(lw.buf, errMsg)
		lw.buf = append(lw.buf, ']')
		lw.finish("", -1)
		lw.begin(topicComplete, r.completeNs, r.uuid[:], conv, int(r.turn))
		lw.buf = append(lw.buf, "null"...)
		lw.finish("", int(r.worker))
		return
	}
	lw.begin(topicComplete, r.completeNs, r.uuid[:], conv, int(r.turn))
	arng := rand.New(rand.NewPCG(s.spec.Seed^answerSalt, uint64(id)))
	finish := "stop"
	if r.length {
		finish = "length"
	}
	if s.agentic != nil {
		var agenticFinish string
		lw.buf, agenticFinish = s.agentic.appendOutput(s, lw.buf, id, arng)
		if agenticFinish != "" {
			finish = agenticFinish
		}
	} else if s.spec.Reasoning {
		lw.buf = appendReasoningOutput(lw.buf, arng, int(r.tokens))
	} else {
		lw.buf = appendStreamedOutput(lw.buf, arng, int(r.tokens))
		lw.buf = append(lw.buf, ",null,null]"...)
	}
	lw.finish(finish, int(r.worker))
}

// appendStreamedOutput appends `["TextModelOutput",[first,rest]` for an answer
// of tokens words: the first chunk is one word and rest holds tokens−1 words,
// each after a whitespace separator. A one-token answer is `[first]`. The caller
// closes the array with reasoning and tool_calls.
func appendStreamedOutput(b []byte, rng *rand.Rand, tokens int) []byte {
	b = append(b, `["TextModelOutput",["`...)
	b = appendOpener(b, rng)
	if tokens > 1 {
		b = append(b, `","`...)
		b = appendWords(b, rng, tokens-1)
	}
	return append(b, `"]`...)
}

// appendReasoningOutput appends a whole reasoning-model TextModelOutput:
// ["TextModelOutput", content, [first, rest], null]. The first reasoning chunk
// is one word; rest and content share the other tokens−1 words, about a fifth
// of them in the content, which starts with a blank line so no word straddles
// the rest/content seam.
func appendReasoningOutput(b []byte, rng *rand.Rand, tokens int) []byte {
	after := tokens - 1
	content := 0
	if after >= 2 {
		content = max(1, after/5)
	}
	b = append(b, `["TextModelOutput","`...)
	if content > 0 {
		b = append(b, `\n\n`...)
		b = appendSentence(b, rng, content)
	}
	b = append(b, `",["`...)
	b = appendOpener(b, rng)
	if after-content > 0 {
		b = append(b, `","`...)
		b = appendWords(b, rng, after-content)
	}
	return append(b, `"],null]`...)
}
