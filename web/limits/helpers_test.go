package limits_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web/limits"
)

// stubClock is a clock that moves only when told to, shared by every engine
// of a test the way real processes share wall time.
type stubClock struct {
	mu  sync.Mutex
	now time.Time
}

func newStubClock(t time.Time) *stubClock { return &stubClock{now: t} }

func (c *stubClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *stubClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *stubClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// env is what a limits test runs against: one Postgres, one Redis, and any
// number of engines on them standing for separate web processes.
type env struct {
	st    *store.Store
	rdb   *redis.Client
	clock *stubClock
}

func newEnv(t *testing.T, now time.Time) *env {
	t.Helper()
	_, rdb := storetest.NewRedis(t)
	return &env{st: storetest.NewStore(t), rdb: rdb, clock: newStubClock(now)}
}

// engine returns a new engine, as another web process would have, with its
// own Redis connection pool.
func (e *env) engine(t *testing.T) *limits.Engine {
	t.Helper()
	rdb := redis.NewClient(e.rdb.Options())
	t.Cleanup(func() { rdb.Close() })
	return limits.New(rdb, e.st, limits.Config{Clock: e.clock})
}

var accountSeq atomic.Int64

// account inserts an account row directly and returns its id.
func (e *env) account(t *testing.T) int64 {
	t.Helper()
	var id int64
	email := fmt.Sprintf("limits-%d@example.com", accountSeq.Add(1))
	if err := e.st.Pool().QueryRow(context.Background(),
		`INSERT INTO accounts (email) VALUES ($1) RETURNING id`, email).Scan(&id); err != nil {
		t.Fatalf("insert account: %v", err)
	}
	return id
}

// appError asserts that err is a *selah.Error with the code and a
// Retry-After of at least one second, and returns it.
func appError(t *testing.T, err error, code string) *selah.Error {
	t.Helper()
	var ae *selah.Error
	if !errors.As(err, &ae) {
		t.Fatalf("error = %v, want *selah.Error %s", err, code)
	}
	if ae.Code != code {
		t.Fatalf("code = %s, want %s (%s)", ae.Code, code, ae.Message)
	}
	if ae.RetryAfter < 1 {
		t.Fatalf("RetryAfter = %d, want >= 1", ae.RetryAfter)
	}
	if ae.Message == "" {
		t.Fatal("empty message")
	}
	return ae
}

// parallel runs f n times at once, released together, and waits.
func parallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			f(i)
		}()
	}
	close(start)
	wg.Wait()
}
