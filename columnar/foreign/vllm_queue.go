package foreign

import (
	"fmt"
	"math"

	"github.com/steadysweep/steadysweep/columnar/contract"
	"github.com/steadysweep/steadysweep/core"
)

// vllmQueueStat summarises a result's queue_times (vllm-project/vllm
// vllm/benchmarks/serve.py @ 009e6d4a1cd6ba3fb2a9fc00f4ec06f5297232a1):
// per request, output.client_queue_time = output.start_time −
// request_arrival_time, both time.perf_counter() s — the wait for a
// --max-concurrency slot (the semaphore in limited_request_func) between
// the request's scheduled arrival and its send, on the client, not in
// the server's queue. TTFT and latency are measured from the send
// (start_time), the issue time read, so the queue time moves no sample;
// it is kept as a whole-run summary over the successful requests, the
// ones serve.py's own "Client Queue Time" statistics take. A negative or
// infinite or non-number entry is a problem at queue_times[i]. reqs are in the
// arrays' order (before FillFromRequests sorts them); nil when the result
// has no queue_times.
func vllmQueueStat(queue []float64, reqs []contract.Request, sum *contract.Summary) []core.RecordedStat {
	if len(queue) == 0 {
		return nil
	}
	st := core.RecordedStat{Field: "vllm queue_times", Unit: "s"}
	for i, v := range queue {
		switch {
		case math.IsNaN(v) || i >= len(reqs):
		case v < 0 || math.IsInf(v, 0):
			sum.AddProblem(contract.KindFieldType, 0, fmt.Sprintf("queue_times[%d]", i))
		case reqs[i].Failure == core.FailNone:
			st.Add(v)
		}
	}
	return []core.RecordedStat{st}
}
