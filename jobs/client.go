package jobs

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
)

// Config tunes how a Client watches the jobs its callers wait
// for. Zero values are usable defaults (see WithDefaults).
type Config struct {
	// WatchEvery is how often each waiting call's job is looked at (its
	// Asynq state and the liveness of the worker that runs it) and how
	// long the result subscription may stay quiet before it is pinged
	// (default 1s).
	WatchEvery time.Duration
	// LostAfter is how long a job may look lost before its caller gets 503
	// instead of waiting for the deadline (default 1s): pending while no
	// worker serves its queue, running on a worker whose heartbeat has
	// lapsed (itself HeartbeatTTL after the last beat), gone without
	// a result, or unreadable because Redis fails. It absorbs a result
	// still on its way and a single failed look.
	LostAfter time.Duration
}

// WithDefaults returns c with zero values replaced by the defaults.
func (c Config) WithDefaults() Config {
	if c.WatchEvery == 0 {
		c.WatchEvery = time.Second
	}
	if c.LostAfter == 0 {
		c.LostAfter = time.Second
	}
	return c
}

func (c Config) validate() error {
	switch {
	case c.WatchEvery < 10*time.Millisecond || c.WatchEvery > time.Minute:
		return fmt.Errorf("jobs: WatchEvery %s is outside [10ms, 1m]", c.WatchEvery)
	case c.LostAfter <= 0 || c.LostAfter > time.Minute:
		return fmt.Errorf("jobs: LostAfter %s is outside (0, 1m]", c.LostAfter)
	}
	return nil
}

// Client is the web process's synchronous call over Asynq: it enqueues a
// job and waits for the worker's result (see Call). Each web process
// subscribes once, at start, to its own reply channel; results are routed
// to waiting requests by reply key. Because the subscription exists before any job is enqueued, a fast
// result cannot be missed, and a result for a request that already left
// finds no waiter and is dropped.
//
// A caller does not wait for its deadline when the job cannot finish: the
// client watches every waiting job (see watch) and the subscription (see
// listen), and fails the call with 503 when the job's worker died, no
// worker serves its queue, or a result could have been lost.
type Client struct {
	cfg      Config
	rdb      *redis.Client
	client   *asynq.Client
	insp     *asynq.Inspector
	instance string // names the reply channel: crypto/rand.Text, unique per process
	log      *slog.Logger

	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	done   sync.WaitGroup // listen and watch

	mu      sync.Mutex
	pubsub  *redis.PubSub      // the current subscription
	healthy bool               // subscribed, and no result lost since
	waiters map[string]*waiter // by reply key

	liveMu    sync.Mutex
	liveUntil map[string]time.Time // queue -> cached "workers alive" until

	// roundTrip is how long callers wait for jobs, by type and outcome.
	roundTrip *prometheus.HistogramVec
}

// waiter is one call waiting for its job's result.
type waiter struct {
	ch     chan Result // buffered: one result or failure, never blocks
	queue  string
	taskID string
	// enqueued is set once the job is in Asynq: only then is it watched.
	enqueued bool
	// lostSince is when the job first looked lost, zero while it looks
	// fine; only the watch goroutine touches it.
	lostSince time.Time
}

// Collector exposes the client's metrics for the server's registry.
func (q *Client) Collector() prometheus.Collector { return q.roundTrip }

// Waiting is how many calls are waiting for their results.
func (q *Client) Waiting() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiters)
}

// NewClient subscribes to the process's reply channel and returns the
// client. Close releases it.
func NewClient(ctx context.Context, rdb *redis.Client, cfg Config, log *slog.Logger) (*Client, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	q := &Client{
		cfg:       cfg,
		rdb:       rdb,
		client:    asynq.NewClientFromRedisClient(rdb),
		insp:      asynq.NewInspectorFromRedisClient(rdb),
		instance:  rand.Text(),
		log:       log,
		waiters:   map[string]*waiter{},
		liveUntil: map[string]time.Time{},
		roundTrip: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "selah", Subsystem: "queue", Name: "round_trip_seconds",
			Help:    "Time from enqueue to the result reaching the web process, by job type and outcome.",
			Buckets: roundTripBuckets,
		}, []string{"type", "outcome"}),
	}
	ps, err := q.subscribe(ctx, 5*time.Second)
	if err != nil {
		return nil, err
	}
	q.pubsub, q.healthy = ps, true
	q.ctx, q.cancel = context.WithCancel(context.WithoutCancel(ctx))
	q.done.Add(2)
	go q.listen(ps)
	go q.watch()
	return q, nil
}

// Close stops receiving results and watching jobs.
func (q *Client) Close() error {
	q.cancel()
	q.mu.Lock()
	ps := q.pubsub
	q.mu.Unlock()
	err := ps.Close() // ends a receive in progress
	q.done.Wait()
	if errors.Is(err, redis.ErrClosed) { // listen closed it, having lost it
		err = nil
	}
	return err
}

// subscribe subscribes to the process's reply channel and waits up to
// timeout for Redis to confirm it.
func (q *Client) subscribe(ctx context.Context, timeout time.Duration) (*redis.PubSub, error) {
	ps := q.rdb.Subscribe(ctx, ReplyChannel(q.instance))
	if _, err := ps.ReceiveTimeout(ctx, timeout); err != nil {
		ps.Close()
		return nil, fmt.Errorf("jobs: subscribe to results: %w", err)
	}
	return ps, nil
}

// listen routes results to their waiters. When the subscription fails, a
// result published meanwhile is lost for good, so every call waiting at
// that moment fails at once with 503; new calls are refused until the
// subscription is back.
func (q *Client) listen(ps *redis.PubSub) {
	defer q.done.Done()
	for {
		err := q.receive(ps)
		ps.Close()
		if q.ctx.Err() != nil {
			return
		}
		q.log.Error("job results subscription lost", slog.String("error", err.Error()))
		q.failAll(&selah.Error{Code: selah.EUNAVAILABLE, RetryAfter: 2,
			Message: "The connection to the job queue was lost while waiting for the result. Try again shortly."})
		if ps = q.resubscribe(); ps == nil {
			return
		}
		q.log.Info("job results subscription restored")
	}
}

// receive dispatches results until the subscription fails: a read error,
// or a quiet connection that does not answer a ping within WatchEvery.
func (q *Client) receive(ps *redis.PubSub) error {
	pinged := false
	for {
		msg, err := ps.ReceiveTimeout(q.ctx, q.cfg.WatchEvery)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && !pinged && q.ctx.Err() == nil {
				if err := ps.Ping(q.ctx); err != nil {
					return err
				}
				pinged = true
				continue
			}
			return err
		}
		pinged = false
		if m, ok := msg.(*redis.Message); ok {
			q.deliver(m.Payload)
		}
	}
}

// resubscribe subscribes again, retrying until it succeeds (and marks the
// client healthy) or the client is closed (nil).
func (q *Client) resubscribe() *redis.PubSub {
	for backoff := 100 * time.Millisecond; ; backoff = min(2*backoff, 2*time.Second) {
		ps, err := q.subscribe(q.ctx, q.cfg.WatchEvery)
		if err == nil {
			q.mu.Lock()
			defer q.mu.Unlock()
			if q.ctx.Err() != nil { // Close ran meanwhile and closed the old one
				ps.Close()
				return nil
			}
			q.pubsub, q.healthy = ps, true
			return ps
		}
		select {
		case <-q.ctx.Done():
			return nil
		case <-time.After(backoff):
		}
	}
}

func (q *Client) deliver(payload string) {
	var r Result
	if err := json.Unmarshal([]byte(payload), &r); err != nil {
		q.log.Warn("dropping malformed job result", slog.String("error", err.Error()))
		return
	}
	q.mu.Lock()
	w, ok := q.waiters[r.ReplyKey]
	delete(q.waiters, r.ReplyKey)
	q.mu.Unlock()
	if ok {
		w.ch <- r
	}
}

// failAll fails every waiting call with err and refuses new ones until the
// subscription is back.
func (q *Client) failAll(err *selah.Error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.healthy = false
	for key, w := range q.waiters {
		delete(q.waiters, key)
		w.ch <- failure(err)
	}
}

// fail fails one waiting call with err, unless its result came first.
func (q *Client) fail(key string, w *waiter, err *selah.Error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.waiters[key] == w {
		delete(q.waiters, key)
		w.ch <- failure(err)
	}
}

func failure(err *selah.Error) Result {
	return Result{Error: &ErrorPayload{Code: err.Code, Message: err.Message, RetryAfter: err.RetryAfter}}
}

// watch looks at every waiting job each WatchEvery and fails the calls
// whose jobs cannot finish (see Config.LostAfter). Asynq would notice
// a dead worker's job only when its lease runs out, and then archive it
// without a word to the caller.
func (q *Client) watch() {
	defer q.done.Done()
	t := time.NewTicker(q.cfg.WatchEvery)
	defer t.Stop()
	for {
		select {
		case <-q.ctx.Done():
			return
		case <-t.C:
		}
		q.mu.Lock()
		watched := make(map[string]*waiter, len(q.waiters))
		for key, w := range q.waiters {
			if w.enqueued {
				watched[key] = w
			}
		}
		q.mu.Unlock()
		for key, w := range watched {
			lost, now := q.jobLost(w), time.Now()
			switch {
			case lost == nil:
				w.lostSince = time.Time{}
			case lost.definite:
				q.fail(key, w, lost.err)
			case w.lostSince.IsZero():
				w.lostSince = now
			case now.Sub(w.lostSince) >= q.cfg.LostAfter:
				q.fail(key, w, lost.err)
			}
		}
	}
}

// lostJob says why a job looks unable to finish.
type lostJob struct {
	err *selah.Error
	// definite: no grace can mend it (Asynq archived the job).
	definite bool
}

// jobLost looks at the job of w: nil while it can still finish.
func (q *Client) jobLost(w *waiter) *lostJob {
	ctx, cancel := context.WithTimeout(q.ctx, q.cfg.WatchEvery)
	defer cancel()
	unavailable := &lostJob{err: &selah.Error{Code: selah.EUNAVAILABLE, RetryAfter: 2,
		Message: "The job queue is unavailable. Try again shortly."}}
	noWorkers := &lostJob{err: &selah.Error{Code: selah.EWORKERSUNAVAILABLE, RetryAfter: 5,
		Message: "No workers are running for " + w.queue + " jobs. Try again shortly."}}
	workerDied := &lostJob{err: &selah.Error{Code: selah.EWORKERSUNAVAILABLE, RetryAfter: 5,
		Message: "The worker running this " + w.queue + " job stopped before it finished. Try again shortly."}}

	info, err := q.insp.GetTaskInfo(w.queue, w.taskID)
	switch {
	case errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound):
		// The job ended and was deleted, yet its result has not come: it
		// was published while this process was not listening, or never.
		return &lostJob{err: &selah.Error{Code: selah.EUNAVAILABLE, RetryAfter: 2,
			Message: "The result of this " + w.queue + " job was lost. Try again shortly."}}
	case err != nil:
		q.log.Warn("watch job", slog.String("job", w.queue), slog.String("error", err.Error()))
		return unavailable
	}
	switch {
	case info.State == asynq.TaskStateActive && len(info.Result) > 0:
		alive, err := q.workerAlive(ctx, string(info.Result))
		if err != nil {
			q.log.Warn("watch job", slog.String("job", w.queue), slog.String("error", err.Error()))
			return unavailable
		}
		if !alive {
			return workerDied
		}
		return nil
	case info.State == asynq.TaskStateArchived || info.State == asynq.TaskStateCompleted:
		// Archived: Asynq gave up on it (its worker's lease ran out). A
		// completed task is kept only with retention, which selah never
		// asks for; either way no result is coming.
		workerDied.definite = true
		return workerDied
	default:
		// Pending (or scheduled, retry, aggregating): waiting for a worker.
		// Or running on a worker that has not named itself yet: then
		// any worker of the queue will do.
		alive, err := q.WorkersAlive(ctx, w.queue)
		if err != nil {
			q.log.Warn("watch job", slog.String("job", w.queue), slog.String("error", err.Error()))
			return unavailable
		}
		if !alive {
			return noWorkers
		}
		return nil
	}
}

// workerAlive reports whether the worker process with the id still
// heartbeats (it may be finishing its jobs before it stops).
func (q *Client) workerAlive(ctx context.Context, id string) (bool, error) {
	score, err := q.rdb.ZScore(ctx, ProcessesKey, id).Result()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("jobs: worker liveness: %w", err)
	}
	return int64(score) > time.Now().UnixMilli(), nil
}

// WorkersAlive reports whether any worker heartbeats for queue (for
// readiness checks, and before each call). A positive answer is cached
// briefly; a negative one is always re-checked so a pool that comes back
// is seen at once.
func (q *Client) WorkersAlive(ctx context.Context, queue string) (bool, error) {
	now := time.Now()
	q.liveMu.Lock()
	until := q.liveUntil[queue]
	q.liveMu.Unlock()
	if now.Before(until) {
		return true, nil
	}
	n, err := q.rdb.ZCount(ctx, WorkersKey(queue), strconv.FormatInt(now.UnixMilli(), 10), "+inf").Result()
	if err != nil {
		return false, fmt.Errorf("jobs: worker liveness: %w", err)
	}
	if n > 0 {
		q.liveMu.Lock()
		q.liveUntil[queue] = now.Add(250 * time.Millisecond)
		q.liveMu.Unlock()
	}
	return n > 0, nil
}

type jobScopeKey struct{}

// WithScope returns ctx under which Call names jobs within scope (an
// account, or the anonymous website): the task id is scope and request id
// together, so two callers sending the same X-Request-Id never collide.
// The client's request id stays in the job's header for correlation only.
func WithScope(ctx context.Context, scope string) context.Context {
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

// Call enqueues args as a job with the (scoped, see WithScope) request
// id as task id, no retries and
// the given deadline, then waits for its result. Outcomes: the worker's
// body; the worker's application error; ETIMEOUT at the deadline;
// EWORKERSUNAVAILABLE at once when no worker serves the queue, and within
// a few seconds when the job's worker dies or the workers go while it is
// pending; EUNAVAILABLE when Redis fails or the result subscription breaks
// (a result could have been lost).
func Call[A Args](ctx context.Context, q *Client, requestID string, args A, timeout time.Duration) (json.RawMessage, error) {
	queue := args.Kind()
	if q == nil {
		return nil, &selah.Error{Code: selah.EWORKERSUNAVAILABLE, Message: "This server has no job queue configured.", RetryAfter: 5}
	}
	alive, err := q.WorkersAlive(ctx, queue)
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
	replyKey := rand.Text()
	payload, err := Encode(Envelope[A]{Header: Header{RequestID: requestID, ReplyTo: ReplyChannel(q.instance),
		ReplyKey: replyKey, EnqueuedAt: time.Now(), Deadline: deadline}, Args: args})
	if err != nil {
		return nil, err
	}

	task := asynq.NewTask(queue, payload)
	taskID := jobID(ctx, requestID)
	w := &waiter{ch: make(chan Result, 1), queue: queue, taskID: taskID}
	q.mu.Lock()
	healthy := q.healthy
	if healthy {
		q.waiters[replyKey] = w
	}
	q.mu.Unlock()
	if !healthy {
		return nil, &selah.Error{Code: selah.EUNAVAILABLE, RetryAfter: 2, Message: "The job queue is unavailable. Try again shortly."}
	}
	defer func() {
		q.mu.Lock()
		if q.waiters[replyKey] == w {
			delete(q.waiters, replyKey)
		}
		q.mu.Unlock()
	}()

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
		return nil, fmt.Errorf("jobs: enqueue %s: %w", queue, err)
	}

	q.mu.Lock()
	w.enqueued = true
	q.mu.Unlock()

	start := time.Now()
	body, err := wait(ctx, q, w.ch, queue, taskID, deadline, timeout)
	outcome := "ok"
	if err != nil {
		outcome = selah.ErrorCode(err)
	}
	q.roundTrip.WithLabelValues(queue, outcome).Observe(time.Since(start).Seconds())
	return body, err
}

func wait(ctx context.Context, q *Client, ch chan Result, queue, requestID string, deadline time.Time, timeout time.Duration) (json.RawMessage, error) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case r := <-ch:
		if err := r.Err(); err != nil {
			// The watch may have given up on a job that is still pending:
			// it must not start later.
			q.abandon(queue, requestID)
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

// roundTripBuckets are the round-trip histogram's buckets, the same as the
// web and worker latency histograms so the three can be read together.
var roundTripBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}

// leaseMargin is how long asynq keeps a job's lease past the job's own
// deadline: a handler that ignores its context gets this long to return
// before asynq gives up on it.
const leaseMargin = 5 * time.Second

// abandon drops a job whose caller has gone: a job still pending is
// deleted, so no worker starts it. A running one is left to end at its
// deadline, which is the caller's; cancelling it through asynq would
// archive the task and keep its id (the request id) taken. Its result,
// if one still comes, finds no waiter.
func (q *Client) abandon(queue, id string) {
	_ = q.insp.DeleteTask(queue, id)
}
