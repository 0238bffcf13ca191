package limits_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/selahdev/selah"
	"github.com/selahdev/selah/store/storetest"
	"github.com/selahdev/selah/web/limits"
)

var free = limits.Limits{RequestsPerMinute: 5, ConcurrentRequests: 1, AsksPerDay: 10, AsksPerMonth: 100}

func (e *env) pgCounts(t *testing.T, acct int64) (int, int) {
	t.Helper()
	d, m, err := e.st.AskCounts(context.Background(), acct, e.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	return d, m
}

func remaining(t *testing.T, e *limits.Engine, acct int64, l limits.Limits) limits.Quota {
	t.Helper()
	d, m, err := e.Remaining(context.Background(), acct, l)
	if err != nil {
		t.Fatal(err)
	}
	return limits.Quota{Daily: d, Monthly: m}
}

func TestQuotaNeverOverAdmits(t *testing.T) {
	now := time.Date(2025, 6, 10, 18, 0, 0, 0, time.UTC)
	env := newEnv(t, now)
	engines := []*limits.Engine{env.engine(t), env.engine(t)}
	acct := env.account(t)

	var mu sync.Mutex
	var admitted []limits.Reservation
	parallel(50, func(i int) {
		r, err := engines[i%2].Reserve(context.Background(), acct, free)
		if err != nil {
			ae := appError(t, err, selah.EQUOTA)
			if ae.RetryAfter != 6*3600 {
				t.Errorf("RetryAfter = %d, want 21600 (until midnight UTC)", ae.RetryAfter)
			}
			return
		}
		mu.Lock()
		admitted = append(admitted, r)
		mu.Unlock()
	})
	if len(admitted) != 10 {
		t.Fatalf("admitted %d reservations, want 10", len(admitted))
	}
	if q := remaining(t, engines[0], acct, free); q != (limits.Quota{Daily: 0, Monthly: 90}) {
		t.Fatalf("remaining with 10 outstanding = %+v, want 0/90", q)
	}

	// 7 Asks succeed, 3 fail: only the 7 are charged, and the 3 come back.
	parallel(10, func(i int) {
		e := engines[i%2]
		if i < 7 {
			if _, err := e.Commit(context.Background(), admitted[i]); err != nil {
				t.Error(err)
			}
		} else if err := e.Release(context.Background(), admitted[i]); err != nil {
			t.Error(err)
		}
	})
	if d, m := env.pgCounts(t, acct); d != 7 || m != 7 {
		t.Fatalf("Postgres counts %d/%d, want 7/7", d, m)
	}
	if q := remaining(t, engines[1], acct, free); q != (limits.Quota{Daily: 3, Monthly: 93}) {
		t.Fatalf("remaining = %+v, want 3/93", q)
	}

	// Another 50 contend for the last 3.
	var more int
	parallel(50, func(i int) {
		r, err := engines[i%2].Reserve(context.Background(), acct, free)
		if err != nil {
			appError(t, err, selah.EQUOTA)
			return
		}
		mu.Lock()
		more++
		mu.Unlock()
		if _, err := engines[i%2].Commit(context.Background(), r); err != nil {
			t.Error(err)
		}
	})
	if more != 3 {
		t.Fatalf("admitted %d more, want 3", more)
	}
	if d, m := env.pgCounts(t, acct); d != 10 || m != 10 {
		t.Fatalf("Postgres counts %d/%d, want 10/10", d, m)
	}
}

func TestQuotaCommitIsIdempotent(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 10, 18, 0, 0, 0, time.UTC))
	e, other := env.engine(t), env.engine(t)
	acct := env.account(t)

	r, err := e.Reserve(context.Background(), acct, free)
	if err != nil {
		t.Fatal(err)
	}
	if r.Left != (limits.Quota{Daily: 9, Monthly: 99}) {
		t.Fatalf("Left = %+v, want 9/99", r.Left)
	}
	for i := range 3 {
		q, err := []*limits.Engine{e, other}[i%2].Commit(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		if q != (limits.Quota{Daily: 9, Monthly: 99}) {
			t.Fatalf("commit %d: quota = %+v, want 9/99", i+1, q)
		}
	}
	// Releasing after commit does not refund it.
	if err := e.Release(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if q := remaining(t, e, acct, free); q != (limits.Quota{Daily: 9, Monthly: 99}) {
		t.Fatalf("remaining = %+v, want 9/99", q)
	}
	if d, m := env.pgCounts(t, acct); d != 1 || m != 1 {
		t.Fatalf("Postgres counts %d/%d, want 1/1", d, m)
	}
}

func TestQuotaWindowsRollOver(t *testing.T) {
	at := func(s string) time.Time {
		tm, err := time.Parse(time.DateTime, s)
		if err != nil {
			panic(err)
		}
		return tm.UTC()
	}
	type step struct {
		clock      string
		want       bool // admitted
		retryAfter int  // when refused
	}
	cases := []struct {
		name   string
		limits limits.Limits
		steps  []step
	}{
		{
			name:   "day ends at midnight UTC",
			limits: limits.Limits{AsksPerDay: 2, AsksPerMonth: 100},
			steps: []step{
				{"2025-06-10 23:59:58", true, 0},
				{"2025-06-10 23:59:59", true, 0},
				{"2025-06-10 23:59:59", false, 1},
				{"2025-06-11 00:00:00", true, 0},
				{"2025-06-11 00:00:00", true, 0},
				{"2025-06-11 00:00:00", false, 86400},
			},
		},
		{
			name:   "month ends on the first UTC",
			limits: limits.Limits{AsksPerDay: 10, AsksPerMonth: 3},
			steps: []step{
				{"2025-04-29 10:00:00", true, 0},
				{"2025-04-30 10:00:00", true, 0},
				{"2025-04-30 23:59:59", true, 0},
				{"2025-04-30 23:59:59", false, 1},
				{"2025-05-01 00:00:00", true, 0},
				{"2025-05-01 00:00:00", true, 0},
				{"2025-05-02 00:00:00", true, 0},
				// The day is fresh but the month is not: the month's reset
				// is what the client must wait for.
				{"2025-05-03 00:00:00", false, 29 * 86400},
			},
		},
		{
			name:   "day and month end together at new year",
			limits: limits.Limits{AsksPerDay: 1, AsksPerMonth: 1},
			steps: []step{
				{"2025-12-31 23:59:59", true, 0},
				{"2025-12-31 23:59:59", false, 1},
				{"2026-01-01 00:00:00", true, 0},
				{"2026-01-01 12:00:00", false, 31*86400 - 12*3600},
			},
		},
		{
			name:   "leap february",
			limits: limits.Limits{AsksPerDay: 5, AsksPerMonth: 1},
			steps: []step{
				{"2028-02-28 23:59:59", true, 0},
				{"2028-02-29 00:00:00", false, 86400},
				{"2028-03-01 00:00:00", true, 0},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := newEnv(t, at(tc.steps[0].clock))
			e := env.engine(t)
			acct := env.account(t)
			for i, s := range tc.steps {
				env.clock.Set(at(s.clock))
				r, err := e.Reserve(context.Background(), acct, tc.limits)
				if !s.want {
					ae := appError(t, err, selah.EQUOTA)
					if ae.RetryAfter != s.retryAfter {
						t.Fatalf("step %d (%s): RetryAfter = %d, want %d", i, s.clock, ae.RetryAfter, s.retryAfter)
					}
					continue
				}
				if err != nil {
					t.Fatalf("step %d (%s): %v", i, s.clock, err)
				}
				if _, err := e.Commit(context.Background(), r); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestQuotaCommitAfterMidnightCountsOnTheReservedDay(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 10, 23, 59, 59, 0, time.UTC))
	e := env.engine(t)
	acct := env.account(t)
	l := limits.Limits{AsksPerDay: 2, AsksPerMonth: 100}

	r, err := e.Reserve(context.Background(), acct, l)
	if err != nil {
		t.Fatal(err)
	}
	env.clock.Set(time.Date(2025, 6, 11, 0, 0, 5, 0, time.UTC))
	q, err := e.Commit(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	// Reported for the new day: the Ask counted on the day it was admitted.
	if q != (limits.Quota{Daily: 2, Monthly: 99}) {
		t.Fatalf("quota after commit = %+v, want 2/99", q)
	}
	d, m, err := env.st.AskCounts(context.Background(), acct, r.At)
	if err != nil || d != 1 || m != 1 {
		t.Fatalf("counts of the reserved day = %d/%d %v, want 1/1", d, m, err)
	}
}

func TestQuotaSurvivesRedisFlush(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC))
	e := env.engine(t)
	acct := env.account(t)
	ctx := context.Background()

	for range 10 {
		r, err := e.Reserve(ctx, acct, free)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Commit(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	_, err := e.Reserve(ctx, acct, free)
	appError(t, err, selah.EQUOTA)

	// Redis restarts empty: Postgres still knows today's ten Asks.
	if err := env.rdb.FlushDB(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	_, err = e.Reserve(ctx, acct, free)
	appError(t, err, selah.EQUOTA)
	if q := remaining(t, e, acct, free); q != (limits.Quota{Daily: 0, Monthly: 90}) {
		t.Fatalf("remaining = %+v, want 0/90", q)
	}

	// Next day, after another flush: the month still remembers.
	env.clock.Set(time.Date(2025, 6, 11, 9, 0, 0, 0, time.UTC))
	env.rdb.FlushDB(ctx)
	if q := remaining(t, e, acct, free); q != (limits.Quota{Daily: 10, Monthly: 90}) {
		t.Fatalf("remaining next day = %+v, want 10/90", q)
	}
	r, err := e.Reserve(ctx, acct, free)
	if err != nil {
		t.Fatal(err)
	}
	if r.Left != (limits.Quota{Daily: 9, Monthly: 89}) {
		t.Fatalf("Left = %+v, want 9/89", r.Left)
	}
}

func TestQuotaReservationOfCrashedProcessLapses(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC))
	e := env.engine(t)
	acct := env.account(t)
	l := limits.Limits{AsksPerDay: 1, AsksPerMonth: 100}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	r, err := e.Reserve(ctx, acct, l) // never committed nor released
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Reserve(ctx, acct, l)
	appError(t, err, selah.EQUOTA)

	env.clock.Set(r.Expires)
	r2, err := e.Reserve(ctx, acct, l)
	if err != nil {
		t.Fatalf("after the lease: %v", err)
	}
	if err := e.Release(ctx, r2); err != nil {
		t.Fatal(err)
	}
	// An Ask that overran its lease and then succeeds is still charged.
	if _, err := e.Commit(ctx, r); err != nil {
		t.Fatal(err)
	}
	if q := remaining(t, e, acct, l); q.Daily != 0 {
		t.Fatalf("daily remaining = %d, want 0", q.Daily)
	}
	if d, _ := env.pgCounts(t, acct); d != 1 {
		t.Fatalf("Postgres daily count = %d, want 1", d)
	}
}

func TestQuotaZeroAndUnlimited(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC))
	e := env.engine(t)
	acct := env.account(t)

	_, err := e.Reserve(context.Background(), acct, limits.Limits{AsksPerDay: 0, AsksPerMonth: 100})
	appError(t, err, selah.EQUOTA)

	l := limits.Limits{AsksPerDay: limits.Unlimited, AsksPerMonth: limits.Unlimited}
	for range 20 {
		r, err := e.Reserve(context.Background(), acct, l)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Commit(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	if q := remaining(t, e, acct, l); q != (limits.Quota{Daily: limits.Unlimited, Monthly: limits.Unlimited}) {
		t.Fatalf("remaining = %+v, want unlimited", q)
	}
	if d, m := env.pgCounts(t, acct); d != 20 || m != 20 {
		t.Fatalf("Postgres counts %d/%d, want 20/20 (usage is recorded even when unlimited)", d, m)
	}
}

// TestQuotaRedisFailsAtCommit: issue 14 (8). An Ask succeeds while its web
// process cannot reach Redis: the commit records it in Postgres but cannot
// count it in Redis. Once the reservation's lease has run out, every
// process, the one that failed and another, agrees with Postgres: the
// quota left, and the number of Asks admitted, from both at once, until
// it is used up.
func TestQuotaRedisFailsAtCommit(t *testing.T) {
	env := newEnv(t, time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC))
	proxy := storetest.NewProxy(t, storetest.RedisAddr())
	opts := *env.rdb.Options()
	opts.Addr = proxy.Addr()
	rdb := redis.NewClient(&opts)
	t.Cleanup(func() { rdb.Close() })
	cut := limits.New(rdb, env.st, limits.Config{Clock: env.clock})
	other := env.engine(t)
	acct := env.account(t)
	l := limits.Limits{AsksPerDay: 3, AsksPerMonth: 100}
	ctx := context.Background()

	r, err := cut.Reserve(ctx, acct, l)
	if err != nil {
		t.Fatal(err)
	}
	proxy.Down()
	if _, err := cut.Commit(ctx, r); err == nil {
		t.Fatal("commit succeeded with Redis unreachable")
	}
	proxy.Up()
	for i := 0; rdb.Ping(ctx).Err() != nil; i++ { // the pool may wait a moment before dialling again
		if i > 100 {
			t.Fatal("Redis unreachable through the proxy")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if d, m := env.pgCounts(t, acct); d != 1 || m != 1 {
		t.Fatalf("Postgres counts %d/%d, want the Ask recorded", d, m)
	}

	env.clock.Set(r.Expires) // the request ended long ago; its lease lapses
	slot, q, err := other.AcquireAndRead(ctx, acct, limits.Limits{ConcurrentRequests: 1, AsksPerDay: 3, AsksPerMonth: 100})
	if err != nil {
		t.Fatal(err)
	}
	other.ReleaseSlot(ctx, slot)
	if q != (limits.Quota{Daily: 2, Monthly: 99}) {
		t.Fatalf("another engine: quota = %+v, want 2/99 as Postgres counts", q)
	}
	if q := remaining(t, cut, acct, l); q != (limits.Quota{Daily: 2, Monthly: 99}) {
		t.Fatalf("the engine that failed: remaining = %+v, want 2/99 as Postgres counts", q)
	}
	var mu sync.Mutex
	admitted := 0
	parallel(20, func(i int) {
		e := []*limits.Engine{cut, other}[i%2]
		r, err := e.Reserve(ctx, acct, l)
		if err != nil {
			appError(t, err, selah.EQUOTA)
			return
		}
		mu.Lock()
		admitted++
		mu.Unlock()
		if _, err := e.Commit(ctx, r); err != nil {
			t.Error(err)
		}
	})
	if admitted != 2 {
		t.Fatalf("admitted %d more Asks, want 2", admitted)
	}
	if d, m := env.pgCounts(t, acct); d != 3 || m != 3 {
		t.Fatalf("Postgres counts %d/%d, want 3/3", d, m)
	}
	if q := remaining(t, other, acct, l); q != (limits.Quota{Daily: 0, Monthly: 97}) {
		t.Fatalf("remaining = %+v, want 0/97", q)
	}
}
