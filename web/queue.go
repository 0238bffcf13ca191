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
	waiters map[string]chan tasks.Result

	liveMu    sync.Mutex
	liveUntil map[string]time.Time // queue -> cached "workers alive" until
}

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
		ch, ok := q.waiters[r.RequestID]
		delete(q.waiters, r.RequestID)
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

// Run enqueues args as a job with the request id as task id, no retries and
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
	payload, err := tasks.Encode(tasks.Envelope[A]{RequestID: requestID, ReplyTo: tasks.ReplyChannel(q.instance), Deadline: deadline, Args: args})
	if err != nil {
		return nil, err
	}

	ch := make(chan tasks.Result, 1)
	q.mu.Lock()
	q.waiters[requestID] = ch
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		delete(q.waiters, requestID)
		q.mu.Unlock()
	}()

	task := asynq.NewTask(queue, payload)
	_, err = q.client.EnqueueContext(ctx, task,
		asynq.TaskID(requestID), asynq.Queue(queue), asynq.MaxRetry(0), asynq.Deadline(deadline))
	if err != nil {
		if errors.Is(err, asynq.ErrTaskIDConflict) {
			return nil, selah.Errorf(selah.ECONFLICT, "A request with this X-Request-Id is already in progress.")
		}
		return nil, fmt.Errorf("web: enqueue %s: %w", queue, err)
	}

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

// abandon makes sure a job whose caller has gone does no further work: a
// pending job is deleted, a running one is asked to cancel. Its result, if
// any still comes, finds no waiter.
func (q *Queue) abandon(queue, id string) {
	if err := q.insp.DeleteTask(queue, id); err == nil {
		return
	}
	_ = q.insp.CancelProcessing(id)
}
