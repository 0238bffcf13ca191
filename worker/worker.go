// Package worker runs selah's Asynq workers: it dequeues search and ask
// jobs, runs them through the pipeline and publishes each result to the
// reply channel of the web process that waits for it.
package worker

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/jobs"
	"github.com/selahdev/selah/pipeline"
	"github.com/selahdev/selah/store"
)

// Config holds worker settings. Zero values are usable defaults.
type Config struct {
	// Concurrency is the number of jobs run at once (default 2×CPUs as
	// asynq chooses; jobs mostly wait on Postgres).
	Concurrency int
	// PollInterval is how long an idle worker waits before looking for new
	// jobs again. Asynq's default is one second; selah's callers wait
	// synchronously, so the default here is 2 ms, which keeps the queue's
	// added latency to about a millisecond at the cost of a cheap Redis
	// call per interval while idle.
	PollInterval time.Duration
	// ShutdownTimeout is how long a stopping worker lets running jobs
	// finish before asynq hands them back to the queue (default 25s).
	ShutdownTimeout time.Duration
	// Queues served; default both search and ask.
	Queues []string
}

// Handler runs one kind of job. It returns the JSON-able body or an error.
type Handler func(ctx context.Context, requestID string, payload []byte) (any, error)

// Worker is one worker process's Asynq server plus its heartbeat.
type Worker struct {
	cfg      Config
	rdb      *redis.Client
	log      *slog.Logger
	srv      *asynq.Server
	mux      *asynq.ServeMux
	id       string
	handlers map[string]Handler
	stopBeat chan struct{}
	beatDone chan struct{}
	metrics  *Metrics
	stopping atomic.Bool
	stopOnce sync.Once
	// beatMu orders heartbeats against Shutdown leaving the queues' live
	// sets, so a beat in progress cannot put the worker back.
	beatMu sync.Mutex
}

// WithDefaults returns the configuration with every zero value replaced by
// its default (the one place the defaults live).
func (c Config) WithDefaults() Config {
	if c.PollInterval == 0 {
		c.PollInterval = 2 * time.Millisecond
	}
	if c.ShutdownTimeout == 0 {
		c.ShutdownTimeout = 25 * time.Second
	}
	if len(c.Queues) == 0 {
		c.Queues = []string{jobs.QueueSearch, jobs.QueueAsk}
	}
	return c
}

// validate checks a configuration after WithDefaults, naming the field at
// fault: a negative value would otherwise reach asynq, which silently
// replaces it with its own default.
func (c Config) validate() error {
	switch {
	case c.Concurrency < 0:
		return fmt.Errorf("worker: Concurrency must not be negative: %d", c.Concurrency)
	case c.PollInterval < 0:
		return fmt.Errorf("worker: PollInterval must be positive: %s", c.PollInterval)
	case c.ShutdownTimeout < 0:
		return fmt.Errorf("worker: ShutdownTimeout must be positive: %s", c.ShutdownTimeout)
	}
	for _, q := range c.Queues {
		if q == "" {
			return fmt.Errorf("worker: Queues holds an empty name")
		}
	}
	return nil
}

// New builds a worker on rdb. Register handlers with Handle (or
// HandlePipeline) before Start.
func New(cfg Config, rdb *redis.Client, log *slog.Logger) (*Worker, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	queues := map[string]int{}
	for _, q := range cfg.Queues {
		queues[q] = 1
	}
	w := &Worker{cfg: cfg, rdb: rdb, log: log, id: strings.ToLower(rand.Text()[:12]), handlers: map[string]Handler{}, mux: asynq.NewServeMux(),
		metrics: NewMetrics(asynq.NewInspectorFromRedisClient(rdb), cfg.Queues, log)}
	w.srv = asynq.NewServerFromRedisClient(rdb, asynq.Config{
		Concurrency:       cfg.Concurrency,
		Queues:            queues,
		TaskCheckInterval: cfg.PollInterval,
		ShutdownTimeout:   cfg.ShutdownTimeout,
		Logger:            asynqLogger{log},
		LogLevel:          asynq.WarnLevel,
		// Interactive jobs are never retried: the caller has gone by then.
		RetryDelayFunc: func(int, error, *asynq.Task) time.Duration { return time.Hour },
		IsFailure:      func(error) bool { return true },
	})
	return w, nil
}

// HandlePipeline registers selah's two jobs, search over r and ask through
// a, and times their stages in the worker's metrics. serve, the web tests'
// deployment and the benchmarks build their workers with it, so what they
// run is what production runs.
func (w *Worker) HandlePipeline(st *store.Store, r *pipeline.Retriever, a *pipeline.Answerer) {
	r.Observe = w.metrics.ObserveStage
	a.Observe = w.metrics.ObserveStage
	w.Handle(jobs.QueueSearch, (&Searcher{Store: st, Retriever: r}).Handle)
	w.Handle(jobs.QueueAsk, (&Asker{Store: st, Answerer: a}).Handle)
}

// Handle registers the handler of a task type.
func (w *Worker) Handle(kind string, h Handler) {
	w.handlers[kind] = h
	w.mux.HandleFunc(kind, func(ctx context.Context, t *asynq.Task) error {
		return w.run(ctx, t, h)
	})
}

func (w *Worker) run(ctx context.Context, t *asynq.Task, h Handler) error {
	env, args, err := jobs.DecodeHeader(t.Payload())
	if err != nil {
		w.log.Error("malformed job", slog.String("type", t.Type()), slog.String("error", err.Error()))
		return fmt.Errorf("worker: malformed %s job: %w", t.Type(), asynq.SkipRetry)
	}
	log := w.log.With(slog.String("requestId", env.RequestID), slog.String("job", t.Type()))
	// The task's result field names the worker running it while it runs:
	// the caller watches that worker's heartbeat and gives up at once if
	// it dies, rather than at the job's deadline. The task is deleted when
	// the job ends, result field and all.
	if rw := t.ResultWriter(); rw != nil {
		if _, err := rw.Write([]byte(w.id)); err != nil {
			log.Warn("record the job's worker", slog.String("error", err.Error()))
		}
	}
	if !env.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, env.Deadline)
		defer cancel()
	}
	start := time.Now()
	if m := w.metrics; m != nil && !env.EnqueuedAt.IsZero() {
		m.queueWait.WithLabelValues(t.Type()).Observe(start.Sub(env.EnqueuedAt).Seconds())
	}
	body, err := h(ctx, env.RequestID, args)
	if pub := selah.PublicError(err, t.Type(), store.Unavailable); selah.ErrorCode(pub) != selah.ErrorCode(err) {
		if selah.ErrorCode(pub) == selah.EUNAVAILABLE {
			log.Error("database unavailable", slog.String("error", err.Error()))
		}
		err = pub
	}
	if m := w.metrics; m != nil {
		outcome := "ok"
		if err != nil {
			outcome = selah.ErrorCode(err)
		}
		m.duration.WithLabelValues(t.Type(), outcome).Observe(time.Since(start).Seconds())
	}
	if err != nil && selah.ErrorCode(err) == selah.EINTERNAL {
		log.Error("job failed", slog.String("error", err.Error()))
	}
	res := jobs.NewResult(env, body, err)
	b, merr := json.Marshal(res)
	if merr != nil {
		return fmt.Errorf("worker: encode result: %w", merr)
	}
	// Publish even if our context is done: the caller may still be there.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if perr := w.rdb.Publish(pctx, env.ReplyTo, b).Err(); perr != nil {
		log.Error("publish result", slog.String("error", perr.Error()))
	}
	log.Debug("job done", slog.Duration("duration", time.Since(start)), slog.Bool("ok", err == nil))
	// The result, success or error, has been delivered: the job is done
	// and asynq deletes it. Returning an error would make asynq archive
	// the task, keeping its id (the request id) taken for months.
	return nil
}

// Start starts processing and the liveness heartbeat.
func (w *Worker) Start(ctx context.Context) error {
	if err := w.beat(ctx); err != nil {
		return err
	}
	if err := w.srv.Start(w.mux); err != nil {
		return fmt.Errorf("worker: start: %w", err)
	}
	w.stopBeat, w.beatDone = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(w.beatDone)
		t := time.NewTicker(jobs.HeartbeatEvery)
		defer t.Stop()
		for {
			select {
			case <-w.stopBeat:
				return
			case <-t.C:
				if err := w.beat(context.Background()); err != nil {
					w.log.Warn("worker heartbeat", slog.String("error", err.Error()))
				}
			}
		}
	}()
	return nil
}

// beat renews the worker's liveness: in ProcessesKey always, in the
// queues' live sets until it stops taking jobs.
func (w *Worker) beat(ctx context.Context) error {
	w.beatMu.Lock()
	defer w.beatMu.Unlock()
	exp := float64(time.Now().Add(jobs.HeartbeatTTL).UnixMilli())
	old := strconv.FormatInt(time.Now().Add(-time.Minute).UnixMilli(), 10)
	keys := []string{jobs.ProcessesKey}
	if !w.stopping.Load() {
		for _, q := range w.cfg.Queues {
			keys = append(keys, jobs.WorkersKey(q))
		}
	}
	pipe := w.rdb.Pipeline()
	for _, k := range keys {
		pipe.ZAdd(ctx, k, redis.Z{Score: exp, Member: w.id})
		pipe.ZRemRangeByScore(ctx, k, "-inf", old)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("worker: heartbeat: %w", err)
	}
	return nil
}

// Metrics returns the worker's metrics, for its handlers to record
// pipeline stages and for the process to serve.
func (w *Worker) Metrics() *Metrics { return w.metrics }

// Shutdown leaves the live set first, so web processes stop sending work,
// then lets running jobs finish (or hands them back) and stops. It keeps
// heartbeating as a process meanwhile, so the callers of those jobs wait
// for them. Calling it again does nothing.
func (w *Worker) Shutdown() { w.stopOnce.Do(w.shutdown) }

func (w *Worker) shutdown() {
	w.beatMu.Lock()
	w.stopping.Store(true)
	w.beatMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	for _, q := range w.cfg.Queues {
		w.rdb.ZRem(ctx, jobs.WorkersKey(q), w.id)
	}
	cancel()
	w.srv.Shutdown()
	if w.stopBeat != nil {
		close(w.stopBeat)
		<-w.beatDone
	}
	ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	w.rdb.ZRem(ctx, jobs.ProcessesKey, w.id)
}

// asynqLogger routes asynq's logs into slog.
type asynqLogger struct{ l *slog.Logger }

func (a asynqLogger) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...)) }
func (a asynqLogger) Info(args ...any)  { a.l.Info(fmt.Sprint(args...)) }
func (a asynqLogger) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...)) }
func (a asynqLogger) Error(args ...any) { a.l.Error(fmt.Sprint(args...)) }
func (a asynqLogger) Fatal(args ...any) { a.l.Error(fmt.Sprint(args...)) }
