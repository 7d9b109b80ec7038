package synth

import (
	"container/heap"
	"math"
	"math/rand/v2"
)

// Stream identifiers for the PCG sources derived from Spec.Seed. Each concern has
// its own stream so, for example, the words of an answer do not depend on how
// many timing draws came before it.
const (
	streamTiming  = 1
	streamUUID    = 2
	streamOrder   = 3
	streamNoise   = 4
	streamDataset = 5
	streamEpoch   = 7
)

// Failure kinds of a request.
const (
	failNone      uint8 = iota
	failHTTP            // HTTP error before any chunk: no recv_first
	failMidstream       // the stream breaks after the first chunk
	failSkipped         // agentic turn aborted by an earlier failure: never sent
)

// request is one issued sample and everything the simulation decided about it.
type request struct {
	uuid        [32]byte
	client      int32   // closed-loop client or agentic slot; -1 for open loops
	track       int32   // tracked issue position, -1 when issued outside tracking
	dataset     int32   // dataset index (agentic: dataset turn index)
	tokens      int32   // planted output tokens; 1 = a single chunk, no TPOT
	promptWords int32   // prompt length, drives prefill time
	worker      int8    // HTTP worker id written on COMPLETE
	fail        uint8   // failNone, failHTTP, failMidstream, failSkipped
	length      bool    // output capped at MaxNewTokens (finish_reason "length")
	reissue     bool    // closed loop: the client issues again after this one
	gotFirst    bool    // recv_first line written
	completed   bool    // COMPLETE line written
	secondFirst bool    // a retried request: write a second recv_first
	noText      bool    // a tool-call-only answer: output [], no TPOT
	fullAtStart bool    // the batch was at b_ref when decoding started
	full        bool    // decoded entirely at b_ref: TPOT is exactly tau0
	workFrac    float32 // mid-stream failures decode this fraction of the work
	planted     float64 // planted level in ns/token (no jitter, no batch factor)
	tau0        float64 // per-token time at the reference batch, ns
	decodeStart float64 // simulated time of the first token
	offAtStart  float64 // sim.offBatchTime when decoding started
	issueNs     int64   // logged timestamps (0 = not written)
	firstNs     int64
	completeNs  int64
	turn        int32 // agentic turn (1-based), 0 otherwise
	traj        int32 // agentic trajectory index, -1 otherwise
}

// sim is the discrete-event simulation of one run. Time is float64 ns since
// session.start_performance_tracking; logged timestamps add epoch and round.
type sim struct {
	spec  Spec
	lw    *lineWriter
	epoch int64

	timing   *rand.Rand
	uuids    *rand.Rand
	order    *rand.Rand
	levelRNG *rand.Rand

	now      float64
	work     float64 // virtual work clock: d(work)/dt = 1/factor(b)
	batch    int     // running batch b (requests or clients holding a slot)
	bref     int
	factor   float64
	offBatch float64 // total time spent with batch != bref

	events  eventHeap
	decodes decodeHeap
	seq     uint64

	reqs       []request
	clientSlot []bool // closed loop: the client holds a batch slot

	planned       int // tracked issues planned
	issued        int // tracked issues so far
	reserved      int // tracked issues issued or promised to a client
	inFlight      int // tracked requests without their client-side completion
	stopIssuing   bool
	tracking      bool
	stopWritten   bool
	endScheduled  bool
	done          bool
	killAt        int // tracked issue whose line is cut; -1 = never
	byteBudget    int64
	fullSinceSet  bool
	fullSinceSP   float64 // tracked issues / N when the batch first reached b_ref
	prefillQueue  []int32
	prefillBusy   int
	admitQueue    []int32
	passOrder     []int32
	passPos       int
	pairJitter    float64
	levelNoise    []float64
	lastIssueT    float64
	stopT, endT   float64
	netNs         float64
	prefillBaseNs float64
	prefillTokNs  float64

	agentic *agenticState

	duplicateIssued    int
	duplicateRecvFirst int
}

func newSim(spec Spec, lw *lineWriter) *sim {
	s := &sim{
		spec:     spec,
		lw:       lw,
		timing:   rand.New(rand.NewPCG(spec.Seed, streamTiming)),
		uuids:    rand.New(rand.NewPCG(spec.Seed, streamUUID)),
		order:    rand.New(rand.NewPCG(spec.Seed, streamOrder)),
		levelRNG: rand.New(rand.NewPCG(spec.Seed, streamNoise)),
		bref:     spec.referenceBatch(),
		killAt:   -1,
	}
	epochRNG := rand.New(rand.NewPCG(spec.Seed, streamEpoch))
	// Upstream timestamps are time.monotonic_ns(): an arbitrary epoch, about
	// 3e13 to 2e14 ns (hours to days of uptime).
	s.epoch = 30_000_000_000_000 + int64(epochRNG.Float64()*170_000_000_000_000)
	level := spec.levelNs()
	// Network and prefill costs scale with the service rate so TTFT stays
	// about one to two decode steps at every rate, with a floor for the wire.
	s.netNs = math.Min(math.Max(0.05*level, 20_000), 1_000_000)
	s.prefillBaseNs = 0.5 * level
	s.prefillTokNs = 0.03 * level
	if spec.PrefillS > 0 {
		s.prefillBaseNs = 0.5 * spec.PrefillS * 1e9
		s.prefillTokNs = 0.5 * spec.PrefillS * 1e9 / float64(spec.PromptWords)
	}
	s.factor = s.batchFactor(0)
	return s
}

// batchFactor is h0 + (1−h0)·b/b_ref, exactly 1 at b = b_ref.
func (s *sim) batchFactor(b int) float64 {
	if b == s.bref {
		return 1
	}
	h0 := s.spec.BatchH0
	f := h0 + (1-h0)*float64(b)/float64(s.bref)
	return math.Max(f, 1e-3)
}

func (s *sim) schedule(at float64, kind eventKind, req int32) {
	s.seq++
	heap.Push(&s.events, timedEvent{at: at, seq: s.seq, kind: kind, req: req})
}

// advance moves simulated time to t, running the virtual work clock at the
// current batch factor.
func (s *sim) advance(t float64) {
	if t <= s.now {
		return
	}
	dt := t - s.now
	if s.batch != s.bref {
		s.offBatch += dt
	}
	s.work += dt / s.factor
	s.now = t
}

func (s *sim) setBatch(b int) {
	s.batch = b
	s.factor = s.batchFactor(b)
	if b == s.bref && !s.fullSinceSet {
		s.fullSinceSet = true
		s.fullSinceSP = float64(s.issued) / float64(s.spec.DatasetSize)
	}
}

// ts converts simulated time to a logged timestamp.
func (s *sim) ts(t float64) int64 { return s.epoch + int64(math.Round(t)) }

// run processes events until session.ended, a kill, or exhaustion.
func (s *sim) run() {
	for !s.done && s.lw.err == nil {
		nextDecode := math.Inf(1)
		if len(s.decodes) > 0 {
			nextDecode = s.now + math.Max(0, s.decodes[0].workEnd-s.work)*s.factor
		}
		nextEvent := math.Inf(1)
		if len(s.events) > 0 {
			nextEvent = s.events[0].at
		}
		switch {
		case math.IsInf(nextDecode, 1) && math.IsInf(nextEvent, 1):
			return
		case nextEvent <= nextDecode:
			e := heap.Pop(&s.events).(timedEvent)
			s.advance(e.at)
			s.handle(e)
		default:
			d := heap.Pop(&s.decodes).(decodeEntry)
			s.advance(nextDecode)
			s.work = math.Max(s.work, d.workEnd)
			s.decodeFinished(d.req)
		}
	}
}

func (s *sim) handle(e timedEvent) {
	switch e.kind {
	case evIssue:
		s.issue(e.req)
	case evArrive:
		s.arrive(e.req)
	case evPrefillDone:
		s.prefillDone(e.req)
	case evRecvFirst:
		s.recvFirst(e.req)
	case evServerFailed:
		s.serverFailed(e.req)
	case evClientDone:
		s.clientDone(e.req)
	case evDuplicateIssue:
		s.duplicateIssue(e.req)
	case evDrainTimeout:
		if !s.stopWritten {
			s.writeStop()
		}
	case evMaxDuration:
		s.stopIssuing = true
		if !s.stopWritten {
			s.writeStop()
		}
	case evStopTracking:
		if !s.stopWritten {
			s.writeStop()
		}
	case evEnd:
		s.lw.session(topicEnded, s.ts(s.now))
		s.done = true
	}
}

// writeStop publishes STOP now and schedules ENDED shortly after, as the session
// does after its drain.
func (s *sim) writeStop() {
	s.stopWritten = true
	s.tracking = false
	s.stopIssuing = true
	s.lw.session(topicStopTrack, s.ts(s.now))
	s.stopT = s.now
	if !s.endScheduled && s.agentic == nil { // agentic sessions end after the last trajectory
		s.endScheduled = true
		gap := 50e6 + s.timing.Float64()*100e6
		if s.spec.MaxDurationS > 0 && s.inFlight > 0 {
			gap = 1e6 + s.timing.Float64()*4e6 // max_duration: drain skipped
		}
		s.endT = s.now + gap
		s.schedule(s.endT, evEnd, -1)
	}
}

// noiseAt returns the planted lognormal level multiplier of the request at
// tracked position pos: that of its noise epoch.
func (s *sim) noiseAt(pos int) float64 {
	n := s.spec.DatasetSize
	if s.spec.NoiseEpochSP == 1 {
		return s.noiseFor(pos / n)
	}
	return s.noiseFor(int(math.Floor(float64(pos) / (s.spec.NoiseEpochSP * float64(n)))))
}

// noiseFor returns the planted lognormal level multiplier of noise epoch e.
func (s *sim) noiseFor(e int) float64 {
	for len(s.levelNoise) <= e {
		m := 1.0
		if s.spec.LevelNoiseSigma > 0 {
			m = math.Exp(s.spec.LevelNoiseSigma * s.levelRNG.NormFloat64())
		}
		s.levelNoise = append(s.levelNoise, m)
	}
	return s.levelNoise[e]
}

// plantedLevel is the per-token time planted for the request at tracked position
// pos: level × ramp × drift × KV-eviction steps × wave × epoch noise.
func (s *sim) plantedLevel(pos int) float64 {
	n := s.spec.DatasetSize
	x := float64(pos) / float64(n)
	m := s.spec.rampMult(pos)
	if s.spec.Drift != 0 && s.planned > 1 {
		m *= 1 + s.spec.Drift*float64(pos)/float64(s.planned-1)
	}
	for _, st := range s.spec.Steps {
		if x >= st.AtSuperPass {
			m *= st.Mult
		}
	}
	if s.spec.WaveAmp > 0 {
		m *= 1 + s.spec.WaveAmp*math.Sin(2*math.Pi*x/s.spec.WavePeriodSP)
	}
	m *= s.noiseAt(pos)
	return s.spec.levelNs() * m
}

// rampSettled is how close to 1 an exponential ramp's multiplier must come
// to be taken as exactly 1, so the plateau after it is flat.
const rampSettled = 1e-4

// rampMult is the planted ramp multiplier (RampFrom) of tracked position pos.
func (s Spec) rampMult(pos int) float64 {
	if s.RampFrom <= 0 || pos < 0 {
		return 1
	}
	u := float64(pos+1) / float64(s.DatasetSize)
	if s.RampLinear {
		return s.RampFrom + (1-s.RampFrom)*math.Min(u/s.RampLenSP, 1)
	}
	d := (1 - s.RampFrom) * math.Exp(-u/s.RampLenSP)
	if math.Abs(d) < rampSettled {
		return 1
	}
	return 1 - d
}

// jitter returns the relative TPOT deviation ε of the request at tracked
// position pos. Within a super-pass, positions 2j and 2j+1 get +e and −e, so the
// super-pass's TPOTs are symmetric about the planted level; an unpaired last
// position gets 0.
func (s *sim) jitter(pos int) float64 {
	sigma := s.spec.JitterSigma
	if sigma == 0 {
		return 0
	}
	if pos < 0 {
		return clip3(s.timing.NormFloat64()) * sigma
	}
	within := pos % s.spec.DatasetSize
	if within%2 == 1 {
		return -s.pairJitter
	}
	if within == s.spec.DatasetSize-1 {
		return 0
	}
	s.pairJitter = clip3(s.timing.NormFloat64()) * sigma
	return s.pairJitter
}

func clip3(z float64) float64 { return math.Max(-3, math.Min(3, z)) }

// nextDatasetIndex walks per-pass shuffled permutations of 0..N−1, as upstream's
// WithoutReplacementSampleOrder does.
func (s *sim) nextDatasetIndex() int32 {
	n := s.spec.DatasetSize
	if s.passPos == len(s.passOrder) {
		if s.passOrder == nil {
			s.passOrder = make([]int32, n)
		}
		for i := range s.passOrder {
			s.passOrder[i] = int32(i)
		}
		s.order.Shuffle(n, func(i, j int) { s.passOrder[i], s.passOrder[j] = s.passOrder[j], s.passOrder[i] })
		s.passPos = 0
	}
	idx := s.passOrder[s.passPos]
	s.passPos++
	return idx
}

// datasetSample returns the fixed attributes of dataset sample idx: its base
// output length (before per-issue variation and scaling) and prompt length.
func (s *sim) datasetSample(idx int32) (outWords float64, promptWords int32) {
	r := rand.New(rand.NewPCG(s.spec.Seed^0x9e3779b97f4a7c15, uint64(idx)<<8|streamDataset))
	outWords = float64(s.spec.OutputWords) * math.Exp(s.spec.OutputSigma*r.NormFloat64())
	promptWords = int32(math.Max(3, math.Round(float64(s.spec.PromptWords)*math.Exp(0.4*r.NormFloat64()))))
	return outWords, promptWords
}

// newRequest creates a request for a client (-1 for open loops); its tracked
// position and timing are assigned when it is issued.
func (s *sim) newRequest(client int32) int32 {
	s.reqs = append(s.reqs, request{client: client, track: -1, traj: -1})
	return int32(len(s.reqs) - 1)
}

func (s *sim) newUUID(dst *[32]byte) {
	const hexDigits = "0123456789abcdef"
	hi, lo := s.uuids.Uint64(), s.uuids.Uint64()
	// uuid4: version nibble 4, variant bits 10xx.
	hi = hi&^(0xf<<12) | 0x4<<12
	lo = lo&^(0x3<<62) | 0x2<<62
	for i := 0; i < 16; i++ {
		dst[i] = hexDigits[(hi>>(60-4*uint(i)))&0xf]
		dst[16+i] = hexDigits[(lo>>(60-4*uint(i)))&0xf]
	}
}

// issue writes the ISSUED line of request id and sends it to the server.
func (s *sim) issue(id int32) {
	if s.stopIssuing && s.agentic == nil {
		return
	}
	r := &s.reqs[id]
	s.newUUID(&r.uuid)
	pos := -1
	if s.tracking {
		pos = s.issued
		r.track = int32(pos)
		s.issued++
		s.inFlight++
		if s.agentic == nil && s.issued == s.planned {
			s.lastIssueT = s.now
			s.schedule(s.now+s.spec.DrainTimeoutS*1e9, evDrainTimeout, -1)
		}
	}
	if s.agentic != nil {
		s.agentic.prepareTurn(s, id)
	} else {
		r.dataset = s.nextDatasetIndex()
	}
	outWords, promptWords := s.datasetSample(r.dataset)
	r.promptWords = promptWords
	tokens := math.Round(outWords * (0.9 + 0.2*s.timing.Float64()) * s.spec.OutputScale)
	if s.agentic != nil {
		tokens = math.Round(s.agentic.outputWords(s, id) * s.spec.OutputScale)
		r.noText = !s.agentic.hasText(s, id)
	}
	tokens = math.Max(2, tokens)
	if tokens > float64(s.spec.MaxNewTokens) {
		tokens = float64(s.spec.MaxNewTokens)
		r.length = true
	}
	r.tokens = int32(tokens)
	if s.spec.SingleChunkRate > 0 && s.timing.Float64() < s.spec.SingleChunkRate {
		r.tokens = 1
		r.length = false
	}
	levelPos := pos
	if levelPos < 0 {
		levelPos = len(s.reqs) - 1
	}
	r.planted = s.plantedLevel(levelPos)
	r.tau0 = r.planted * (1 + s.jitter(pos))
	r.worker = int8(s.timing.IntN(8))
	if s.spec.FailureRate > 0 && s.timing.Float64() < s.spec.FailureRate {
		if s.timing.Float64() < 0.6 {
			r.fail = failHTTP
		} else {
			r.fail = failMidstream
			r.workFrac = float32(0.2 + 0.7*s.timing.Float64())
		}
	}
	if s.killAt >= 0 && pos == s.killAt {
		s.lw.cutNext = true
	}
	s.writeIssued(id)
	if s.lw.cut {
		s.done = true
		return
	}
	if s.byteBudget > 0 && s.lw.bytes >= s.byteBudget {
		s.stopIssuing = true
	}
	if s.spec.DuplicateRate > 0 && s.timing.Float64() < s.spec.DuplicateRate {
		s.schedule(s.now+1e6+29e6*s.timing.Float64(), evDuplicateIssue, id)
	}
	s.schedule(s.now+s.netNs, evArrive, id)
	s.scheduleNextOpenIssue()
}

// scheduleNextOpenIssue chains the next open-loop issue (Poisson gap or offline
// burst gap) while the budget lasts.
func (s *sim) scheduleNextOpenIssue() {
	if s.spec.Mode != ModePoisson && s.spec.Mode != ModeOffline {
		return
	}
	if s.stopIssuing || s.reserved >= s.planned {
		return
	}
	s.reserved++
	var gap float64
	if s.spec.Mode == ModePoisson {
		gap = math.Max(1, s.timing.ExpFloat64()/s.spec.QPS*1e9)
	} else {
		gap = 15e3 + 30e3*s.timing.Float64() // back-to-back burst, 15–45 µs apart
	}
	s.schedule(s.now+gap, evIssue, s.newRequest(-1))
}

// arrive sends the request to prefill (or fails it, or, in open loops with a
// MaxBatch cap, queues it for a batch slot). Open-loop requests hold a batch
// slot from arrival to completion.
func (s *sim) arrive(id int32) {
	r := &s.reqs[id]
	if r.fail == failHTTP {
		s.schedule(s.now+2e6+18e6*s.timing.Float64(), evServerFailed, id)
		return
	}
	if r.client >= 0 && s.agentic == nil {
		s.enqueuePrefill(id) // the client's batch slot is taken when prefill starts
		return
	}
	if s.spec.MaxBatch > 0 && s.batch >= s.spec.MaxBatch {
		s.admitQueue = append(s.admitQueue, id)
		return
	}
	s.setBatch(s.batch + 1)
	s.enqueuePrefill(id)
}

func (s *sim) enqueuePrefill(id int32) {
	s.prefillQueue = append(s.prefillQueue, id)
	s.startPrefills()
}

func (s *sim) startPrefills() {
	for s.prefillBusy < s.spec.PrefillSlots && len(s.prefillQueue) > 0 {
		id := s.prefillQueue[0]
		s.prefillQueue = s.prefillQueue[1:]
		s.prefillBusy++
		if c := s.reqs[id].client; c >= 0 && s.agentic == nil && !s.clientSlot[c] {
			// A closed-loop client joins the running batch when its first
			// request starts prefill and keeps the slot until it leaves.
			s.clientSlot[c] = true
			s.setBatch(s.batch + 1)
		}
		d := (s.prefillBaseNs + float64(s.reqs[id].promptWords)*s.prefillTokNs) * (0.9 + 0.2*s.timing.Float64())
		if pos := s.reqs[id].track; s.spec.PrefillDrift != 0 && s.planned > 1 && pos >= 0 {
			d *= 1 + s.spec.PrefillDrift*float64(pos)/float64(s.planned-1)
		}
		s.schedule(s.now+d, evPrefillDone, id)
	}
}

// prefillDone emits the first token and starts decoding the rest.
func (s *sim) prefillDone(id int32) {
	s.prefillBusy--
	s.startPrefills()
	r := &s.reqs[id]
	r.decodeStart = s.now
	r.fullAtStart = s.batch == s.bref
	r.offAtStart = s.offBatch
	work := float64(r.tokens-1) * r.tau0
	if r.fail == failMidstream {
		work *= float64(r.workFrac)
	}
	s.seq++
	heap.Push(&s.decodes, decodeEntry{workEnd: s.work + work, seq: s.seq, req: id})
	s.schedule(s.now+s.netNs, evRecvFirst, id)
}

func (s *sim) recvFirst(id int32) {
	r := &s.reqs[id]
	r.firstNs = s.ts(s.now)
	r.gotFirst = true
	s.writeRecvFirst(id, r.firstNs)
	if r.secondFirst {
		// The retried request's stream answers too; the reference keeps only
		// the first recv_first.
		s.writeRecvFirst(id, r.firstNs+int64(5000+s.timing.IntN(20000)))
		s.duplicateRecvFirst++
	}
}

func (s *sim) writeRecvFirst(id int32, ts int64) {
	r := &s.reqs[id]
	s.lw.begin(topicRecvFirst, ts, r.uuid[:], s.conversationID(id), int(r.turn))
	s.lw.buf = append(s.lw.buf, "null"...)
	s.lw.finish("", -1)
}

// decodeFinished releases the request's batch slot (or keeps it for the
// closed-loop client's next request) and sends the result to the client.
func (s *sim) decodeFinished(id int32) {
	r := &s.reqs[id]
	r.full = r.fullAtStart && s.offBatch == r.offAtStart
	s.releaseSlot(id)
	s.schedule(s.now+s.netNs, evClientDone, id)
}

func (s *sim) serverFailed(id int32) {
	s.releaseSlotAfterFailure(id)
	s.schedule(s.now+s.netNs, evClientDone, id)
}

// releaseSlot frees the batch slot of a finished request. A closed-loop client
// that will issue again keeps its slot: the follow-up request is admitted in the
// same instant, so the batch stays at C through the client's re-issue gap.
func (s *sim) releaseSlot(id int32) {
	if s.reqs[id].client >= 0 && s.agentic == nil {
		s.releaseClientSlot(id)
		return
	}
	s.setBatch(s.batch - 1)
	for len(s.admitQueue) > 0 && (s.spec.MaxBatch == 0 || s.batch < s.spec.MaxBatch) {
		next := s.admitQueue[0]
		s.admitQueue = s.admitQueue[1:]
		s.setBatch(s.batch + 1)
		s.enqueuePrefill(next)
	}
}

// releaseSlotAfterFailure handles an HTTP failure, which never held a slot of
// its own.
func (s *sim) releaseSlotAfterFailure(id int32) {
	if s.reqs[id].client >= 0 && s.agentic == nil {
		s.releaseClientSlot(id)
	}
}

// releaseClientSlot is what a closed-loop client's request gives back when
// it ends: a client that will issue again keeps the slot for its next
// request (reissue); else the client's slot, if it holds one, is freed.
func (s *sim) releaseClientSlot(id int32) {
	r := &s.reqs[id]
	if !s.stopIssuing && s.reserved < s.planned {
		s.reserved++
		r.reissue = true
		return
	}
	if s.clientSlot[r.client] {
		s.clientSlot[r.client] = false
		s.setBatch(s.batch - 1)
	}
}

// clientDone writes the COMPLETE line (after error.generic for failures) and
// lets the client continue.
func (s *sim) clientDone(id int32) {
	r := &s.reqs[id]
	r.completeNs = s.ts(s.now)
	r.completed = true
	s.writeComplete(id)
	if r.track >= 0 {
		s.inFlight--
	}
	switch {
	case s.agentic != nil:
		s.agentic.turnDone(s, id)
	case r.reissue:
		next := s.newRequest(r.client)
		s.schedule(s.now+8e3+32e3*s.timing.Float64(), evIssue, next)
	}
	if s.agentic == nil && !s.stopWritten && s.inFlight == 0 && (s.issued >= s.planned || s.stopIssuing) {
		s.schedule(s.now+0.2e6+0.8e6*s.timing.Float64(), evStopTracking, -1)
	}
}

// duplicateIssue writes a retried ISSUED line for a request still in flight,
// and for half of those whose first chunk arrived, a second recv_first.
func (s *sim) duplicateIssue(id int32) {
	r := &s.reqs[id]
	if r.completed || s.done {
		return
	}
	s.writeIssuedAt(id, s.ts(s.now))
	s.duplicateIssued++
	if s.timing.IntN(2) == 0 {
		if r.gotFirst {
			s.writeRecvFirst(id, s.ts(s.now)+int64(5000+s.timing.IntN(20000)))
			s.duplicateRecvFirst++
		} else {
			r.secondFirst = true
		}
	}
}

// conversationID is the agentic conversation instance id of a request, "" for
// single-turn runs.
func (s *sim) conversationID(id int32) string {
	if s.agentic == nil {
		return ""
	}
	return s.agentic.conversationID(s.reqs[id].traj)
}
