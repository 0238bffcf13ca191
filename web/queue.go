package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/worker/tasks"
)

// Queue is the synchronous facade over Asynq: it enqueues a job and waits
// for the worker's result. Each web process subscribes once, at start, to
// its own reply channel; results are routed to waiting requests by request
// id. Because the subscription exists before any job is enqueued, a fast
// result cannot be missed, and a result for a request that already left
// finds no waiter and is dropped.
type Queue struct {
	rdb      *redis.Client
	client   *asynq.Client
	insp     *asynq.Inspector
	instance string
	log      *slog.Logger
	pubsub   *redis.PubSub

	mu      sync.Mutex
	waiters map[string]chan tasks.Result // by reply key

	liveMu    sync.Mutex
	liveUntil map[string]time.Time // queue -> cached "workers alive" until

	// roundTrip is how long callers wait for jobs, by type and outcome.
	roundTrip *prometheus.HistogramVec
}

// Collector exposes the facade's metrics for the server's registry.
func (q *Queue) Collector() prometheus.Collector { return q.roundTrip }

// NewQueue subscribes to the process's reply channel and returns the
// facade. Close releases it.
func NewQueue(ctx context.Context, rdb *redis.Client, log *slog.Logger) (*Queue, error) {
	b := make([]byte, 8)
	rand.Read(b)
	q := &Queue{
		rdb:       rdb,
		client:    asynq.NewClientFromRedisClient(rdb),
		insp:      asynq.NewInspectorFromRedisClient(rdb),
		instance:  hex.EncodeToString(b),
		log:       log,
		waiters:   map[string]chan tasks.Result{},
		liveUntil: map[string]time.Time{},
		roundTrip: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "selah", Subsystem: "queue", Name: "round_trip_seconds",
			Help:    "Time from enqueue to the result reaching the web process, by job type and outcome.",
			Buckets: latencyBuckets,
		}, []string{"type", "outcome"}),
	}
	q.pubsub = rdb.Subscribe(ctx, tasks.ReplyChannel(q.instance))
	if _, err := q.pubsub.Receive(ctx); err != nil {
		q.pubsub.Close()
		return nil, fmt.Errorf("web: subscribe to results: %w", err)
	}
	go q.dispatch()
	return q, nil
}

// Close stops receiving results.
func (q *Queue) Close() error {
	return q.pubsub.Close()
}

func (q *Queue) dispatch() {
	for msg := range q.pubsub.Channel(redis.WithChannelSize(1024)) {
		var r tasks.Result
		if err := json.Unmarshal([]byte(msg.Payload), &r); err != nil {
			q.log.Warn("dropping malformed job result", slog.String("error", err.Error()))
			continue
		}
		q.mu.Lock()
		ch, ok := q.waiters[r.ReplyKey]
		delete(q.waiters, r.ReplyKey)
		q.mu.Unlock()
		if ok {
			ch <- r // buffered: never blocks
		}
	}
}

// workersAlive reports whether any worker heartbeats for queue. A positive
// answer is cached briefly; a negative one is always re-checked so a pool
// that comes back is seen at once.
func (q *Queue) workersAlive(ctx context.Context, queue string) (bool, error) {
	now := time.Now()
	q.liveMu.Lock()
	until := q.liveUntil[queue]
	q.liveMu.Unlock()
	if now.Before(until) {
		return true, nil
	}
	n, err := q.rdb.ZCount(ctx, tasks.WorkersKey(queue), strconv.FormatInt(now.UnixMilli(), 10), "+inf").Result()
	if err != nil {
		return false, fmt.Errorf("web: worker liveness: %w", err)
	}
	if n > 0 {
		q.liveMu.Lock()
		q.liveUntil[queue] = now.Add(250 * time.Millisecond)
		q.liveMu.Unlock()
	}
	return n > 0, nil
}

type jobScopeKey struct{}

// WithJobScope returns ctx under which Run names jobs within scope (an
// account, or the anonymous website): the task id is scope and request id
// together, so two callers sending the same X-Request-Id never collide.
// The client's request id stays in the job's header for correlation only.
func WithJobScope(ctx context.Context, scope string) context.Context {
	return context.WithValue(ctx, jobScopeKey{}, scope)
}

// jobID is the Asynq task id of the request's job.
func jobID(ctx context.Context, requestID string) string {
	scope, _ := ctx.Value(jobScopeKey{}).(string)
	if scope == "" {
		scope = "anon"
	}
	return scope + ":" + requestID
}

// Run enqueues args as a job with the (scoped, see WithJobScope) request
// id as task id, no retries and
// the given deadline, then waits for its result. Outcomes: the worker's
// body; the worker's application error; ETIMEOUT at the deadline;
// EWORKERSUNAVAILABLE at once when no worker serves the queue.
func Run[A tasks.Args](ctx context.Context, q *Queue, requestID string, args A, timeout time.Duration) (json.RawMessage, error) {
	queue := args.Kind()
	if q == nil {
		return nil, &selah.Error{Code: selah.EWORKERSUNAVAILABLE, Message: "This server has no job queue configured.", RetryAfter: 5}
	}
	alive, err := q.workersAlive(ctx, queue)
	if err != nil {
		return nil, selah.Errorf(selah.EUNAVAILABLE, "The job queue is unavailable. Try again shortly.")
	}
	if !alive {
		return nil, &selah.Error{Code: selah.EWORKERSUNAVAILABLE, Message: "No workers are running for " + queue + " jobs. Try again shortly.", RetryAfter: 5}
	}
	deadline := time.Now().Add(timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	replyKey := newReplyKey()
	payload, err := tasks.Encode(tasks.Envelope[A]{Header: tasks.Header{RequestID: requestID, ReplyTo: tasks.ReplyChannel(q.instance),
		ReplyKey: replyKey, EnqueuedAt: time.Now(), Deadline: deadline}, Args: args})
	if err != nil {
		return nil, err
	}

	ch := make(chan tasks.Result, 1)
	q.mu.Lock()
	q.waiters[replyKey] = ch
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		delete(q.waiters, replyKey)
		q.mu.Unlock()
	}()

	task := asynq.NewTask(queue, payload)
	taskID := jobID(ctx, requestID)
	_, err = q.client.EnqueueContext(ctx, task,
		asynq.TaskID(taskID), asynq.Queue(queue), asynq.MaxRetry(0),
		// The job's own deadline travels in the envelope and ends the
		// handler's context; asynq's lease only needs to outlast it. Were
		// asynq's deadline the one to fire, it would archive the task.
		asynq.Deadline(deadline.Add(leaseMargin)))
	if err != nil {
		if errors.Is(err, asynq.ErrTaskIDConflict) {
			// Only the same caller can collide: job ids are scoped.
			return nil, selah.Errorf(selah.ECONFLICT, "A request of yours with this X-Request-Id is already in progress.")
		}
		return nil, fmt.Errorf("web: enqueue %s: %w", queue, err)
	}

	start := time.Now()
	body, err := wait(ctx, q, ch, queue, taskID, deadline, timeout)
	outcome := "ok"
	if err != nil {
		outcome = selah.ErrorCode(err)
	}
	q.roundTrip.WithLabelValues(queue, outcome).Observe(time.Since(start).Seconds())
	return body, err
}

func wait(ctx context.Context, q *Queue, ch chan tasks.Result, queue, requestID string, deadline time.Time, timeout time.Duration) (json.RawMessage, error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case r := <-ch:
		if err := r.Err(); err != nil {
			return nil, err
		}
		return r.Body, nil
	case <-timer.C:
		q.abandon(queue, requestID)
		return nil, selah.Errorf(selah.ETIMEOUT, "The %s job did not finish within %s.", queue, timeout.Round(time.Millisecond))
	case <-ctx.Done():
		q.abandon(queue, requestID)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, selah.Errorf(selah.ETIMEOUT, "The %s job did not finish in time.", queue)
		}
		return nil, ctx.Err()
	}
}

func newReplyKey() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// leaseMargin is how long asynq keeps a job's lease past the job's own
// deadline: a handler that ignores its context gets this long to return
// before asynq gives up on it.
const leaseMargin = 5 * time.Second

// abandon drops a job whose caller has gone: a job still pending is
// deleted, so no worker starts it. A running one is left to end at its
// deadline, which is the caller's; cancelling it through asynq would
// archive the task and keep its id (the request id) taken. Its result,
// if one still comes, finds no waiter.
func (q *Queue) abandon(queue, id string) {
	_ = q.insp.DeleteTask(queue, id)
}
