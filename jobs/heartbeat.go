package jobs

import "time"

// Liveness: each worker process keeps a member in a sorted set per queue,
// scored by when its heartbeat lapses. The web process counts members whose
// score is in the future to answer 503 at once when no worker serves a
// queue. A stopping worker leaves those sets at once but stays in
// ProcessesKey until its last job has ended, so the callers of jobs it is
// finishing keep waiting while those of a worker that died stop.
//
// Why not asynq's own heartbeat: an asynq server writes its state every
// 5 s with a 10 s lifetime, so a dead worker would be seen only after up
// to 10 s, and its running jobs only when their lease runs out, when asynq
// archives them without a word. selah's callers wait synchronously for a
// result, so they need to know within a second or two. Asynq's state also
// cannot say "stopping, but finishing these jobs", and reading it means
// listing every server record; the sets below are one ZCOUNT or ZSCORE.
const (
	// HeartbeatEvery is how often a worker renews its members.
	HeartbeatEvery = time.Second
	// HeartbeatTTL is how long a member stays live after its last renewal.
	HeartbeatTTL = 3 * time.Second
)

// WorkersKey is the Redis sorted set of live workers serving queue.
func WorkersKey(queue string) string { return "selah:workers:" + queue }

// ProcessesKey is the Redis sorted set of worker processes that are alive,
// whether they take new jobs or are finishing their last ones. A running
// job's Asynq result holds the id of the worker running it (see
// worker.Worker), which Client looks up here.
const ProcessesKey = "selah:worker-processes"

// ReplyChannel is the pub/sub channel of one web process, where workers
// publish the results of its jobs.
func ReplyChannel(instance string) string { return "selah:results:" + instance }
