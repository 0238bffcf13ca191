// Package limits enforces an account's plan limits exactly across every web
// process: requests per minute, requests in flight, and Ask calls per UTC day
// and month. All state lives in Redis and changes only inside Lua scripts
// (the API's own limits in one, admitScript, so a request costs one round
// trip), so two processes can never both take the last unit of a limit. Ask usage is also written to Postgres, which is the
// durable record Redis is re-seeded from after a restart.
//
// The package knows nothing of HTTP; web turns its results into headers and
// its *selah.Error denials into 429 responses.
package limits

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
)

// Unlimited, as a limit, means the limit is not enforced. Zero is a real
// limit: nothing is allowed, so a plan that was never filled in fails
// closed.
const Unlimited = -1

// Limits are the numbers of one plan.
type Limits struct {
	// RequestsPerMinute is both the burst and the sustained rate.
	RequestsPerMinute int
	// ConcurrentRequests is how many requests may be in flight at once.
	ConcurrentRequests int
	// AsksPerDay and AsksPerMonth bound accepted Ask calls per UTC day and
	// UTC month.
	AsksPerDay   int
	AsksPerMonth int
}

// Clock tells the time. Concurrency leases, quota windows and reservation
// expiry use it, so tests can cross UTC midnight without sleeping. The rate
// limiter does not: its GCRA reads the Redis server's clock, which all
// web processes share.
type Clock interface {
	Now() time.Time
}

// ClockFunc adapts a function to Clock.
type ClockFunc func() time.Time

// Now calls f.
func (f ClockFunc) Now() time.Time { return f() }

// UsageStore is the durable record of accepted Ask calls (*store.Store
// satisfies it).
type UsageStore interface {
	// RecordAsk records one accepted Ask; recording the same reservation
	// twice is a no-op.
	RecordAsk(ctx context.Context, reservationID string, accountID int64, at time.Time) error
	// AskCounts returns the accepted Asks of the UTC day containing day and
	// of its UTC month.
	AskCounts(ctx context.Context, accountID int64, day time.Time) (daily, monthly int, err error)
	// RecordedAsks returns which of the reservations were recorded.
	RecordedAsks(ctx context.Context, reservationIDs []string) ([]string, error)
}

// Config tunes the engine. Zero values are usable defaults.
type Config struct {
	// Prefix starts every Redis key (default "selah:limits:").
	Prefix string
	// LeaseMargin is added to a request's deadline to get the lease of its
	// concurrency slot and quota reservation (default 10s). It covers
	// clock skew between processes and the time to release; a process
	// that dies holding a slot frees it at most deadline+margin later.
	LeaseMargin time.Duration
	// DefaultLease is the lease, margin included, when the context has no
	// deadline (default 2m).
	DefaultLease time.Duration
	// Clock defaults to the system clock.
	Clock Clock
}

// Engine checks and records limits. It is safe for concurrent use, and any
// number of engines on the same Redis share the same limits.
type Engine struct {
	rdb redis.UniversalClient
	// hot carries the two commands every API request sends, the admit
	// script and the slot release: on a plain client, its autopipeliner,
	// which sends the commands of concurrent requests to Redis together
	// (one write and one read for many) and a lone command at once. Each
	// script still runs alone and whole in Redis, so the limits are as
	// exact as before; under load both processes spend far fewer system
	// calls per request.
	hot   redis.Cmdable
	usage UsageStore
	rate  *redis_rate.Limiter
	cfg   Config
}

// New returns an engine on rdb. usage may be nil, in which case Ask usage
// lives in Redis only and a Redis restart forgets it.
func New(rdb redis.UniversalClient, usage UsageStore, cfg Config) *Engine {
	if cfg.Prefix == "" {
		cfg.Prefix = "selah:limits:"
	}
	if cfg.LeaseMargin <= 0 {
		cfg.LeaseMargin = 10 * time.Second
	}
	if cfg.DefaultLease <= 0 {
		cfg.DefaultLease = 2 * time.Minute
	}
	if cfg.Clock == nil {
		cfg.Clock = ClockFunc(time.Now)
	}
	e := &Engine{rdb: rdb, hot: rdb, usage: usage, rate: redis_rate.NewLimiter(rdb), cfg: cfg}
	if c, ok := rdb.(*redis.Client); ok && c != nil {
		if ap, err := c.AutoPipeline(); err == nil {
			e.hot = ap
		}
	}
	return e
}

func (e *Engine) now() time.Time { return e.cfg.Clock.Now() }

// key names one account's Redis key. The account id is a hash tag, so all
// keys of an account sit in one Redis Cluster slot and one script may touch
// them together.
func (e *Engine) key(accountID int64, name string) string {
	return e.cfg.Prefix + "{" + strconv.FormatInt(accountID, 10) + "}:" + name
}

// lease is how long a slot or reservation taken under ctx is held before
// it lapses on its own. The deadline is real time, so the time left is
// measured on the real clock and then applied to the engine's clock.
func (e *Engine) lease(ctx context.Context) time.Duration {
	d, ok := ctx.Deadline()
	if !ok {
		return e.cfg.DefaultLease
	}
	return max(time.Until(d), 0) + e.cfg.LeaseMargin
}

// newID names a slot or reservation: unique, opaque, and never shown.
func newID(prefix string) string { return prefix + rand.Text() }

func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }

// ceilSeconds rounds d up to whole seconds, and to at least floor.
func ceilSeconds(d time.Duration, floor int) int {
	s := int((d + time.Second - 1) / time.Second)
	if s < floor {
		return floor
	}
	return s
}

// pipelined runs the scripts queued by fill in one round trip. Scripts go
// by EVALSHA; if Redis has lost them (restart, SCRIPT FLUSH) they are loaded
// and the pipeline runs once more, so every script queued here must be safe
// to run twice.
func (e *Engine) pipelined(ctx context.Context, scripts []*redis.Script, fill func(redis.Pipeliner) []*redis.Cmd) ([]*redis.Cmd, error) {
	for attempt := 0; ; attempt++ {
		pipe := e.rdb.Pipeline()
		cmds := fill(pipe)
		_, err := pipe.Exec(ctx)
		if err == nil {
			return cmds, nil
		}
		if attempt > 0 || !noScript(cmds) {
			return nil, err
		}
		for _, s := range scripts {
			if err := s.Load(ctx, e.rdb).Err(); err != nil {
				return nil, err
			}
		}
	}
}

func noScript(cmds []*redis.Cmd) bool {
	for _, c := range cmds {
		if redis.HasErrorPrefix(c.Err(), "NOSCRIPT") {
			return true
		}
	}
	return false
}

func ints(v any, n int) ([]int64, error) {
	a, ok := v.([]any)
	if !ok || len(a) < n {
		return nil, fmt.Errorf("limits: unexpected script reply %v", v)
	}
	out := make([]int64, len(a))
	for i, x := range a {
		n, ok := x.(int64)
		if !ok {
			return nil, fmt.Errorf("limits: unexpected script reply %v", v)
		}
		out[i] = n
	}
	return out, nil
}

var (
	errNeedsSeed   = errors.New("limits: quota counters not seeded")
	errNeedsSettle = errors.New("limits: lapsed quota reservations not settled")
)
